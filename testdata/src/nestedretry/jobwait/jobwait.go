// Package jobwait waits for jobs of a scheduler whose client retries transport errors, 429s and
// 5xx answers itself. The step marks its errors for jobretry.Do: a failure marked Permanent is
// not retried around the client; one marked Temporary is, and the attempts multiply.
package jobwait

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"nestedretry/jobretry"
)

// Job is a scheduled job.
type Job struct {
	ID    string `json:"id"`
	State string `json:"state"`
}

// Client reads jobs, retrying what a retry can fix.
type Client struct {
	hc   *http.Client
	base string
}

// Get reads a job.
func (c *Client) Get(ctx context.Context, id string) (*Job, error) {
	var last error
	for attempt := range 4 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/jobs/"+id, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			if resp.StatusCode == http.StatusOK {
				defer resp.Body.Close()
				var j Job
				return &j, json.NewDecoder(resp.Body).Decode(&j)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode < 500 {
				return nil, fmt.Errorf("get job %s: status %d", id, resp.StatusCode)
			}
			err = fmt.Errorf("get job %s: status %d", id, resp.StatusCode)
		}
		last = err
		time.Sleep(time.Duration(1<<attempt)*50*time.Millisecond + time.Duration(rand.Int64N(int64(50*time.Millisecond))))
	}
	return nil, last
}

// ---- Not reported: every failure of Get is marked Permanent ----

// WaitDone waits until the job is done.
func WaitDone(ctx context.Context, c *Client, id string) error {
	return jobretry.Do(ctx, 60, func(ctx context.Context) error {
		j, err := c.Get(ctx, id)
		if err != nil {
			return jobretry.Permanent(err)
		}
		if j.State != "done" {
			return jobretry.Temporary(fmt.Errorf("job %s is %s", id, j.State))
		}
		return nil
	})
}

// ---- Reported: every failure of Get is marked Temporary ----

// WaitVisible waits until a new job can be read.
func WaitVisible(ctx context.Context, c *Client, id string) (*Job, error) {
	var job *Job
	err := jobretry.Do(ctx, 10, func(ctx context.Context) error {
		j, err := c.Get(ctx, id) // related "jobwait.go:77: outer retry callback" "jobwait.go:32: inner retry loop" // want `retries around Client\.Get, which retries up to 4 times: attempts multiply on transient failures; keep one layer`
		if err != nil {
			return jobretry.Temporary(err)
		}
		job = j
		return nil
	})
	return job, err
}
