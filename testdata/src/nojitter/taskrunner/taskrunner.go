// Package taskrunner runs the steps of a job, each step a remote call, and tries a step again
// when its result says it did not succeed.
package taskrunner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"os/exec"
	"time"
)

type Step struct {
	Name         string
	Kind         string
	URL          string
	Method       string
	Body         map[string]any
	Command      []string
	Retries      int
	DelaySeconds int
	Accept       []int
}

type StepResult struct {
	Name     string
	Success  bool
	Skipped  bool
	Status   int
	Output   string
	Finished time.Time
}

type Job struct {
	ID      string
	Steps   []Step
	Results []StepResult
}

type Store interface {
	SaveResult(ctx context.Context, jobID string, r *StepResult) error
	SetStatus(ctx context.Context, jobID, status string) error
	GetJob(ctx context.Context, id string) (*Job, error)
}

var client = &http.Client{Timeout: 30 * time.Second}

// Run tries each step until its result succeeds, as many times as the step allows, with the
// step's fixed delay in between (a setting loaded with the job): every worker that failed a
// step at the same moment comes back at the same moment.
func Run(ctx context.Context, store Store, id string) error {
	job, err := store.GetJob(ctx, id)
	if err != nil {
		return err
	}
	for _, step := range job.Steps {
		var result *StepResult
		var err error
		for attempt := 0; attempt <= step.Retries; attempt++ {
			result, err = runStep(ctx, step)
			if err != nil {
				_ = store.SetStatus(ctx, job.ID, "failed")
				return fmt.Errorf("step %s: %w", step.Name, err)
			}
			if result.Success {
				break
			}
			log.Printf("job %s: step %s attempt %d did not succeed", job.ID, step.Name, attempt)
			if step.DelaySeconds > 0 {
				time.Sleep(time.Duration(step.DelaySeconds) * time.Second) // related "taskrunner.go:64: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			}
		}
		job.Results = append(job.Results, *result)
		if err := store.SaveResult(ctx, job.ID, result); err != nil {
			log.Printf("job %s: saving result: %v", job.ID, err)
		}
		if !result.Success {
			return store.SetStatus(ctx, job.ID, "failed")
		}
	}
	return store.SetStatus(ctx, job.ID, "done")
}

func runStep(ctx context.Context, step Step) (*StepResult, error) {
	if step.Kind == "" {
		return &StepResult{Name: step.Name, Success: true, Skipped: true}, nil
	}
	var result *StepResult
	var err error
	switch step.Kind {
	case "http":
		result, err = runHTTP(ctx, step)
	case "command":
		result, err = runCommand(ctx, step)
	default:
		return nil, fmt.Errorf("unknown step kind %q", step.Kind)
	}
	if result != nil {
		result.Finished = time.Now()
	}
	return result, err
}

func runHTTP(ctx context.Context, step Step) (*StepResult, error) {
	body, err := json.Marshal(step.Body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, step.Method, step.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	out, _ := io.ReadAll(res.Body)

	var success bool
	if len(step.Accept) == 0 {
		success = true
		if res.StatusCode >= 400 {
			success = false
		}
	} else {
		for _, code := range step.Accept {
			if code == res.StatusCode {
				success = true
				break
			}
		}
	}
	return &StepResult{Name: step.Name, Success: success, Status: res.StatusCode, Output: string(out)}, nil
}

func runCommand(ctx context.Context, step Step) (*StepResult, error) {
	if len(step.Command) == 0 {
		return nil, errors.New("empty command")
	}
	result := &StepResult{Name: step.Name}
	out, err := exec.CommandContext(ctx, step.Command[0], step.Command[1:]...).CombinedOutput()
	result.Output = string(out)
	result.Success = err == nil
	return result, nil
}

type Export struct {
	ID    string `json:"id"`
	Done  bool   `json:"done"`
	Error string `json:"error"`
}

// AwaitExport polls an export until the server says it is done: the loop waits for a state the
// server reaches, it does not try a failed call again (not reported).
func AwaitExport(ctx context.Context, base, id string) (*Export, error) {
	for {
		exp, err := fetchExport(ctx, base, id)
		if err != nil {
			return nil, err
		}
		if exp.Done {
			return exp, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(2 * time.Second):
		}
	}
}

func fetchExport(ctx context.Context, base, id string) (*Export, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/exports/"+id, nil)
	if err != nil {
		return nil, err
	}
	res, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("export %s: status %d", id, res.StatusCode)
	}
	exp := &Export{}
	if err := json.NewDecoder(res.Body).Decode(exp); err != nil {
		return nil, err
	}
	return exp, nil
}

type throttle struct {
	RetryAfter int `json:"retry_after"`
}

// Notify posts a notice, waiting as long as the server's last answer said: the record the wait
// is read from is filled from each answer, so the wait is the server's word (not reported).
func Notify(ctx context.Context, url string, body []byte) error {
	var t throttle
	for attempt := 0; attempt < 5; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(body))
		if err != nil {
			return err
		}
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		if res.StatusCode < 300 {
			res.Body.Close()
			return nil
		}
		if err := json.NewDecoder(res.Body).Decode(&t); err != nil {
			log.Printf("notify: %v", err)
		}
		res.Body.Close()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(t.RetryAfter) * time.Second):
		}
	}
	return errors.New("notify: gave up")
}

type HookResult struct {
	OK     bool
	Detail string
}

// audit may overturn a hook's verdict (a policy that rejects some answers).
func audit(r *HookResult) {
	if len(r.Detail) > 1024 {
		r.OK = false
	}
}

func callHook(ctx context.Context, url string) *HookResult {
	r := &HookResult{OK: true}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		r.OK = false
		return r
	}
	res, err := client.Do(req)
	if err != nil {
		r.OK, r.Detail = false, err.Error()
		return r
	}
	res.Body.Close()
	audit(r)
	return r
}

// Hooks calls each hook until its result is OK, a second apart: the result is handed to a
// function that may set its verdict, so the field's sense is not known here (not reported).
func Hooks(ctx context.Context, urls []string) {
	for _, u := range urls {
		for attempt := 0; attempt < 3; attempt++ {
			if r := callHook(ctx, u); r.OK {
				break
			}
			time.Sleep(time.Second)
		}
	}
}
