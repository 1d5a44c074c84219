// Package threadverdict is a cloud-drive backend whose loops ask a verdict method whether to
// go round: the verdict counts each thread's attempts in the backend and gives up after
// fifteen, and waits a jittered, doubling delay itself. Such loops are capped and jittered:
// not reported. A loop whose test counts nothing is uncapped.
package threadverdict

import (
	"errors"
	"fmt"
	"log"
	"math/rand"
	"net"
	"net/http"
	"time"
)

type apiError struct {
	Code    int
	Message string
}

func (e *apiError) Error() string { return fmt.Sprintf("api: %d %s", e.Code, e.Message) }

type fileList struct {
	Names []string
	Next  string
}

type driveAPI interface {
	List(query, pageToken string) (*fileList, error)
	Delete(id string) error
}

type Backend struct {
	api      driveAPI
	hc       *http.Client
	threads  int
	backoffs []int
	attempts []int
}

func New(api driveAPI, threads int) *Backend {
	return &Backend{
		api:      api,
		hc:       &http.Client{Timeout: time.Minute},
		threads:  threads,
		backoffs: make([]int, threads),
		attempts: make([]int, threads),
	}
}

// shouldRetry says whether thread should try again after err, and waits before it says so.
func (b *Backend) shouldRetry(thread int, err error) (bool, error) {
	const maxAttempts = 15
	maxBackoff := max(64, b.threads)
	if err == nil {
		b.backoffs[thread] = 1
		b.attempts[thread] = 0
		return false, nil
	}
	retry := false
	var ae *apiError
	var ne net.Error
	switch {
	case errors.As(err, &ae):
		retry = ae.Code >= 500 || ae.Code == http.StatusTooManyRequests || ae.Code == http.StatusRequestTimeout
	case errors.As(err, &ne):
		retry = ne.Timeout()
	}
	if !retry {
		return false, err
	}
	if b.attempts[thread] >= maxAttempts {
		log.Printf("[%d] giving up after %d attempts", thread, b.attempts[thread])
		b.backoffs[thread] = 1
		b.attempts[thread] = 0
		return false, err
	}
	if b.backoffs[thread] < maxBackoff {
		b.backoffs[thread] *= 2
	}
	b.attempts[thread] += 1
	delay := float64(b.backoffs[thread]) * rand.Float64() * 2
	log.Printf("[%d] %v; retrying after %.2fs", thread, err, delay)
	time.Sleep(time.Duration(delay * float64(time.Second)))
	return true, nil
}

// ListAll pages through a folder, each page asked again while the verdict says so: capped
// and jittered by the verdict, not reported.
func (b *Backend) ListAll(thread int, query string) ([]string, error) {
	var names []string
	token := ""
	for {
		var page *fileList
		var err error
		for {
			page, err = b.api.List(query, token)
			if retry, e := b.shouldRetry(thread, err); e == nil && !retry {
				break
			} else if retry {
				continue
			} else {
				return nil, err
			}
		}
		names = append(names, page.Names...)
		if token = page.Next; token == "" {
			return names, nil
		}
	}
}

// Remove deletes a file the same way: not reported.
func (b *Backend) Remove(thread int, id string) error {
	for {
		err := b.api.Delete(id)
		if retry, e := b.shouldRetry(thread, err); e == nil && !retry {
			return nil
		} else if !retry {
			return e
		}
	}
}

// transient says whether err is worth another try; it counts nothing.
func transient(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && ae.Code >= 500
}

// Purge deletes until the error is not transient, with a jittered wait but nothing that
// counts: reported.
func (b *Backend) Purge(id string) error {
	for { // related "threadverdict.go:135: retry loop" // want `retry loop retries for ever \(no attempt cap, no deadline\); count the attempts and stop after a few`
		err := b.api.Delete(id)
		if err == nil || !transient(err) {
			return err
		}
		time.Sleep(time.Duration(rand.Int63n(int64(2 * time.Second))))
	}
}
