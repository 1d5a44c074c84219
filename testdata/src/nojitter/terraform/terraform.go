// Package terraform is a Terraform provider whose functions retry and poll through the
// plugin SDK's helpers: their waits (500 ms doubling to 10 s, no jitter) are the SDK's, which
// no setting can randomise, and the provider has nothing to change.
package terraform

import (
	"errors"
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-sdk/helper/resource"
)

type client struct{ endpoint string }

func (c *client) createVolume(name string, size int) (string, error) { return name, nil }
func (c *client) volumeStatus(id string) (string, error)             { return "available", nil }

var errThrottled = errors.New("Throttling")

// ---- Not reported: the SDK's retry and poll ----

func createVolume(c *client, name string, size int, timeout time.Duration) (string, error) {
	var id string
	err := resource.Retry(timeout, func() *resource.RetryError {
		var err error
		id, err = c.createVolume(name, size)
		if err != nil {
			if strings.Contains(err.Error(), "Throttling") || errors.Is(err, errThrottled) {
				log.Printf("[DEBUG] create volume %s: %v, retrying", name, err)
				return resource.RetryableError(err)
			}
			return resource.NonRetryableError(err)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("create volume %s: %w", name, err)
	}
	return id, nil
}

func waitVolumeAvailable(c *client, id string, timeout time.Duration) error {
	conf := &resource.StateChangeConf{
		Pending: []string{"creating"},
		Target:  []string{"available"},
		Refresh: func() (interface{}, string, error) {
			status, err := c.volumeStatus(id)
			if err != nil {
				return nil, "", err
			}
			return id, status, nil
		},
		Timeout:    timeout,
		Delay:      5 * time.Second,
		MinTimeout: 3 * time.Second,
	}
	_, err := conf.WaitForState()
	return err
}
