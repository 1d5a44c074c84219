// Package volumewait waits for block volumes of a cloud API to reach a state, with
// apimachinery's wait.ExponentialBackoff. A condition that ends the wait on every error and
// goes round only when the answer says "not yet" polls a state: its schedule needs no jitter.
// A condition that swallows a failure and goes round retries it, and is reported.
package volumewait

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

var errNotModifying = errors.New("volume is not being modified")

// Volume is the API's view of a volume.
type Volume struct {
	ID         string `json:"id"`
	State      string `json:"state"`
	Modifying  string `json:"modification_state"`
	AttachedTo string `json:"attached_to"`
}

// Cloud is a client of the volume API.
type Cloud struct {
	endpoint string
	http     *http.Client
	creation wait.Backoff
}

// New returns a client of the API at endpoint.
func New(endpoint string) *Cloud {
	return &Cloud{
		endpoint: endpoint,
		http:     &http.Client{Timeout: 20 * time.Second},
		creation: wait.Backoff{Duration: 2 * time.Second, Factor: 1.5, Steps: 20},
	}
}

func (c *Cloud) describe(ctx context.Context, id string) (*Volume, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.endpoint+"/volumes/"+id, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("describe %s: %w", id, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("describe %s: %s", id, resp.Status)
	}
	var v Volume
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil {
		return nil, err
	}
	if v.Modifying == "" {
		return &v, errNotModifying
	}
	return &v, nil
}

// ---- Not reported: every error ends the wait; it goes round only while the volume is not ready ----

// WaitAvailable waits until a new volume can be attached.
func (c *Cloud) WaitAvailable(ctx context.Context, id string) (*Volume, error) {
	var vol *Volume
	err := wait.ExponentialBackoffWithContext(ctx, c.creation, func(ctx context.Context) (bool, error) {
		v, err := c.describe(ctx, id)
		if err != nil {
			return true, err
		}
		if v.State == "available" || v.State == "in-use" {
			vol = v
			return true, nil
		}
		log.Printf("volume %s is %s", id, v.State)
		return false, nil
	})
	return vol, err
}

// WaitModified waits until a modification of the volume is done.
func (c *Cloud) WaitModified(ctx context.Context, id string) error {
	return wait.ExponentialBackoff(wait.Backoff{Duration: time.Second, Factor: 1.8, Steps: 13}, func() (bool, error) {
		v, err := c.describe(ctx, id)
		if err != nil && errors.Is(err, errNotModifying) {
			return true, nil
		} else if err != nil {
			return false, err
		}
		if v.Modifying == "completed" || v.Modifying == "optimizing" {
			return true, nil
		}
		return false, nil
	})
}

// ---- Reported: a failure of the call goes round ----

// WaitAttached waits until the volume is attached, going round on failures too.
func (c *Cloud) WaitAttached(ctx context.Context, id, instance string) error {
	return wait.ExponentialBackoffWithContext(ctx, wait.Backoff{Duration: time.Second, Factor: 2, Steps: 8}, func(ctx context.Context) (bool, error) { // related "volumewait.go:109: retry callback" // want `wait\.ExponentialBackoffWithContext backs off without jitter: clients that failed together retry in waves; add jitter`
		v, err := c.describe(ctx, id)
		if err != nil {
			log.Printf("describe %s: %v", id, err)
			return false, nil
		}
		return v.AttachedTo == instance, nil
	})
}
