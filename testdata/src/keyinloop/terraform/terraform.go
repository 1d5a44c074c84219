// Package terraform is a Terraform provider (SDK v1 and v2) whose create functions make the
// cloud API's client token inside the SDK's retry callback: every attempt sends a new token,
// and a retry after a lost response creates a second resource.
package terraform

import (
	"context"
	"fmt"
	"log"
	"strings"
	"time"

	resourcev1 "github.com/hashicorp/terraform-plugin-sdk/helper/resource"
	schemav1 "github.com/hashicorp/terraform-plugin-sdk/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"

	"keyinloop/tfcloud"
	"keyinloop/tfhelper"
)

type meta struct{ cloud *tfcloud.Client }

func (m *meta) withClient(f func(c *tfcloud.Client) (interface{}, error)) (interface{}, error) {
	return f(m.cloud)
}

func isRetryable(err error) bool { return strings.Contains(err.Error(), "InternalError") }

// A v1 create function: the token goes to the SDK as an argument, which sends it as a query
// parameter; made in a closure inside the callback, there is no fix.
func resourceRecordCreate(d *schemav1.ResourceData, m interface{}) error {
	client := m.(*meta)
	args := &tfcloud.CreateRecordArgs{Rr: d.Get("rr").(string), Type: d.Get("type").(string), Value: d.Get("value").(string)}
	zone := d.Get("zone_name").(string)
	action := "create record " + args.Rr + " in zone " + zone
	err := resourcev1.Retry(d.Timeout(schemav1.TimeoutCreate), func() *resourcev1.RetryError {
		raw, err := client.withClient(func(c *tfcloud.Client) (interface{}, error) {
			return nil, c.CreateRecord(zone, args, tfhelper.BuildToken()) // related "terraform.go:37: retry callback" "terraform.go:39: sent as query parameter \"clientToken\" via CreateRecord" // want `tfhelper\.BuildToken makes a new idempotency key per attempt of resource\.Retry; move it out`
		})
		if err != nil {
			if isRetryable(err) {
				return resourcev1.RetryableError(err)
			}
			return resourcev1.NonRetryableError(err)
		}
		log.Printf("[DEBUG] %s: %v", action, raw)
		d.SetId(resourcev1.UniqueId())
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return nil
}

// A v2 create function: the token is a field of the request, made in the callback itself;
// the fix makes it once, before RetryContext.
func resourceInstanceCreate(ctx context.Context, d *schema.ResourceData, m interface{}) error {
	client := m.(*meta)
	args := &tfcloud.CreateInstanceArgs{Name: d.Get("name").(string)}
	err := retry.RetryContext(ctx, d.Timeout(schema.TimeoutCreate), func() *retry.RetryError {
		args.ClientToken = tfhelper.BuildToken() // related "terraform.go:62: retry callback" "terraform.go:63: sent as field ClientToken" // want `tfhelper\.BuildToken makes a new idempotency key per attempt of retry\.RetryContext; move it out`
		id, err := client.cloud.CreateInstance(args)
		if err != nil {
			if isRetryable(err) {
				log.Printf("[WARN] creating instance %s: %v; retrying", args.Name, err)
				return retry.RetryableError(err)
			}
			return retry.NonRetryableError(err)
		}
		d.SetId(id)
		return nil
	})
	if err != nil {
		return fmt.Errorf("creating instance %s: %w", args.Name, err)
	}
	return nil
}

// Not reported: the token made once, before the retry (as the SDK's own resources do).
func resourceInstanceCreateKeyed(ctx context.Context, d *schema.ResourceData, m interface{}) error {
	client := m.(*meta)
	args := &tfcloud.CreateInstanceArgs{Name: d.Get("name").(string), ClientToken: tfhelper.BuildToken()}
	return retry.RetryContext(ctx, d.Timeout(schema.TimeoutCreate), func() *retry.RetryError {
		id, err := client.cloud.CreateInstance(args)
		if err != nil {
			return retry.RetryableError(err)
		}
		d.SetId(id)
		return nil
	})
}

// Not reported: a Refresh function that reads, and an ID made inside the callback that is no
// idempotency key.
func waitInstance(ctx context.Context, d *schema.ResourceData, m interface{}) error {
	client := m.(*meta)
	conf := &retry.StateChangeConf{
		Pending: []string{"creating"},
		Target:  []string{"running"},
		Refresh: func() (interface{}, string, error) {
			log.Printf("[DEBUG] poll %s", tfhelper.BuildToken())
			return client, "running", nil
		},
		Timeout:    d.Timeout(schema.TimeoutCreate),
		MinTimeout: 3 * time.Second,
	}
	_, err := conf.WaitForStateContext(ctx)
	return err
}
