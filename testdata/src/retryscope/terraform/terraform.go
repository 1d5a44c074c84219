// Package terraform holds Terraform provider code: the plugin SDK's retry helpers (v1 and
// v2), StateChangeConf, and a provider's own wrappers around them.
package terraform

import (
	"context"
	"errors"
	"fmt"
	"log"
	"time"

	resourcev1 "github.com/hashicorp/terraform-plugin-sdk/helper/resource"
	schemav1 "github.com/hashicorp/terraform-plugin-sdk/helper/schema"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/resource"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry"
	"github.com/hashicorp/terraform-plugin-sdk/v2/helper/schema"
)

var errBusy = errors.New("busy")

type api struct{}

func (api) CreateZone(ctx context.Context, name, token string) (string, error) { return "z-1", nil }
func (api) ZoneStatus(id string) (string, error)                               { return "ready", nil }

// createZone: v2 RetryContext in a resource's create function.
func createZone(ctx context.Context, d *schema.ResourceData, c api) error { // want createZone:`retries: retry callback \(github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry.RetryContext\) at terraform.go:29, attempts=unbounded`
	name := d.Get("name").(string)
	err := retry.RetryContext(ctx, d.Timeout(schema.TimeoutCreate), func() *retry.RetryError { // want `retry callback \(github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry.RetryContext\): attempts=unbounded wait=backoff deadline=context`
		id, err := c.CreateZone(ctx, name, "")
		if errors.Is(err, errBusy) {
			log.Printf("[DEBUG] zone %s busy, retrying", name)
			return retry.RetryableError(err)
		}
		if err != nil {
			return retry.NonRetryableError(fmt.Errorf("creating zone %s: %w", name, err))
		}
		d.SetId(id)
		return nil
	})
	return err
}

// The deprecated v2 helper/resource forms and v1, which has no context.
func legacy(d *schema.ResourceData, dv1 *schemav1.ResourceData, c api) error { // want legacy:`retries: retry callback`
	_ = resource.Retry(time.Minute, func() *resource.RetryError { // want `retry callback \(github.com/hashicorp/terraform-plugin-sdk/v2/helper/resource.Retry\): attempts=unbounded wait=backoff deadline=elapsed`
		return nil
	})
	_ = resource.RetryContext(context.Background(), time.Minute, func() *resource.RetryError { return nil }) // want `retry callback \(github.com/hashicorp/terraform-plugin-sdk/v2/helper/resource.RetryContext\): attempts=unbounded wait=backoff deadline=elapsed`
	return resourcev1.Retry(dv1.Timeout(schemav1.TimeoutDelete), func() *resourcev1.RetryError {             // want `retry callback \(github.com/hashicorp/terraform-plugin-sdk/helper/resource.Retry\): attempts=unbounded wait=backoff deadline=elapsed`
		if _, err := c.ZoneStatus(dv1.Id()); err != nil {
			return resourcev1.RetryableError(err)
		}
		return nil
	})
}

// StateChangeConf polls its Refresh function: backoff by default, fixed with PollInterval. A
// poll, which an error from Refresh ends, does not make waitZone a function that retries.
func waitZone(ctx context.Context, d *schema.ResourceData, c api) error {
	conf := &retry.StateChangeConf{
		Pending: []string{"creating"},
		Target:  []string{"ready"},
		Refresh: func() (interface{}, string, error) {
			s, err := c.ZoneStatus(d.Id())
			return s, s, err
		},
		Timeout:    d.Timeout(schema.TimeoutCreate),
		MinTimeout: 5 * time.Second,
	}
	if _, err := conf.WaitForStateContext(ctx); err != nil { // want `retry callback \(github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry.StateChangeConf.WaitForStateContext\): attempts=unbounded wait=backoff deadline=context`
		return fmt.Errorf("waiting for zone %s: %w", d.Id(), err)
	}
	polled := &resourcev1.StateChangeConf{Refresh: zoneRefresh(c, d.Id()), PollInterval: 10 * time.Second, Timeout: time.Minute}
	_, err := polled.WaitForState() // want `retry callback \(github.com/hashicorp/terraform-plugin-sdk/helper/resource.StateChangeConf.WaitForState\): attempts=unbounded wait=fixed deadline=elapsed`
	return err
}

func zoneRefresh(c api, id string) resourcev1.StateRefreshFunc {
	return func() (interface{}, string, error) {
		s, err := c.ZoneStatus(id)
		return s, s, err
	}
}

// A provider's own wrappers, inferred as helpers: one takes the SDK's RetryFunc, one a
// function returning an error.
func retryOnBusy(timeout time.Duration, f retry.RetryFunc) error { // want retryOnBusy:`retry helper for parameter \[1\]: attempts=unbounded wait=backoff deadline=elapsed` retryOnBusy:`retries: retry callback`
	return retry.Retry(timeout, f) // want `retry callback \(github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry.Retry\): attempts=unbounded wait=backoff deadline=elapsed`
}

func retryWhen(ctx context.Context, timeout time.Duration, f func() error, retryable func(error) bool) error { // want retryWhen:`retry helper for parameter \[2\]: attempts=unbounded wait=backoff deadline=context` retryWhen:`retries: retry callback`
	return retry.RetryContext(ctx, timeout, func() *retry.RetryError { // want `retry callback \(github.com/hashicorp/terraform-plugin-sdk/v2/helper/retry.RetryContext\): attempts=unbounded wait=backoff deadline=context`
		if err := f(); err != nil {
			if retryable(err) {
				return retry.RetryableError(err)
			}
			return retry.NonRetryableError(err)
		}
		return nil
	})
}

func useWrappers(ctx context.Context, d *schema.ResourceData, c api) error { // want useWrappers:`retries: retry callback \(retryscope/terraform.retryOnBusy\)`
	err := retryOnBusy(time.Minute, func() *retry.RetryError { // want `retry callback \(retryscope/terraform.retryOnBusy\): attempts=unbounded wait=backoff deadline=elapsed`
		return nil
	})
	if err != nil {
		return err
	}
	return retryWhen(ctx, time.Minute, func() error { // want `retry callback \(retryscope/terraform.retryWhen\): attempts=unbounded wait=backoff deadline=context`
		_, err := c.CreateZone(ctx, d.Get("name").(string), "")
		return err
	}, func(err error) bool { return errors.Is(err, errBusy) })
}
