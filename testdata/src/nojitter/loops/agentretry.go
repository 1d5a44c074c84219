package loops

import (
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// A request builder whose response type is defined as a pointer to http.Response, with a
// retry setting: the attempt answers with a list of errors, and a predicate on the response
// decides whether the loop is done, sleeping before it says no.

type agentResponse *http.Response

type agentRetry struct {
	Enabled  bool
	Statuses []int
	Wait     time.Duration
	Max      int
	Attempt  int
}

type agent struct {
	hc      *http.Client
	method  string
	url     string
	body    string
	headers http.Header
	retry   agentRetry
	errs    []error
}

func newAgent() *agent {
	return &agent{hc: &http.Client{Timeout: 30 * time.Second}, headers: http.Header{}}
}

func (a *agent) Retry(n int, wait time.Duration, statuses ...int) *agent {
	a.retry = agentRetry{Enabled: true, Statuses: statuses, Wait: wait, Max: n}
	return a
}

func (a *agent) send() (agentResponse, []byte, []error) {
	req, err := http.NewRequest(a.method, a.url, strings.NewReader(a.body))
	if err != nil {
		return nil, nil, append(a.errs, err)
	}
	for k, vs := range a.headers {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return nil, nil, append(a.errs, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, append(a.errs, err)
	}
	return resp, body, nil
}

func statusIn(code int, codes []int) bool {
	for _, c := range codes {
		if c == code {
			return true
		}
	}
	return false
}

// done sleeps the configured wait and says no while the answer has a status to retry.
func (a *agent) done(resp agentResponse) bool {
	if a.retry.Enabled && a.retry.Attempt < a.retry.Max && statusIn(resp.StatusCode, a.retry.Statuses) {
		time.Sleep(a.retry.Wait)
		a.retry.Attempt++
		return false
	}
	return true
}

// Bytes sends the request, again while done says so: reported, the wait is fixed.
func (a *agent) Bytes() (agentResponse, []byte, []error) {
	for {
		resp, body, errs := a.send()
		if errs != nil {
			return nil, nil, errs
		}
		if a.done(resp) { // related "agentretry.go:89: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
			resp.Header.Set("Retry-Count", strconv.Itoa(a.retry.Attempt))
			return resp, body, nil
		}
	}
}

// settled is done with a random wait.
func (a *agent) settled(resp agentResponse) bool {
	if a.retry.Enabled && a.retry.Attempt < a.retry.Max && statusIn(resp.StatusCode, a.retry.Statuses) {
		time.Sleep(a.retry.Wait/2 + rand.N(a.retry.Wait/2+1))
		a.retry.Attempt++
		return false
	}
	return true
}

// JitteredBytes is Bytes with settled: not reported.
func (a *agent) JitteredBytes() (agentResponse, []byte, error) {
	for {
		resp, body, errs := a.send()
		if errs != nil {
			return nil, nil, errors.Join(errs...)
		}
		if a.settled(resp) {
			return resp, body, nil
		}
	}
}
