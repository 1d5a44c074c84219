// Package shadowstd retries in a module without idemlint's runtime: the fix uses math/rand/v2,
// under a name that neither clashes with the file's crypto/rand nor with a local variable.
package shadowstd

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log"
	"net/http"
	"time"
)

var errThrottled = errors.New("throttled")

type Uploader struct {
	http    *http.Client
	baseURL string
	pause   time.Duration
}

func (u *Uploader) put(ctx context.Context, name string) error {
	var nonce [8]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, u.baseURL+"/v1/blobs/"+name, nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-Trace-Nonce", hex.EncodeToString(nonce[:]))
	resp, err := u.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusTooManyRequests {
		return errThrottled
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("put %s: status %d", name, resp.StatusCode)
	}
	return nil
}

// Put waits a configured pause: the fix writes the float form, which is safe for a zero pause.
func (u *Uploader) Put(ctx context.Context, name string) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		if err = u.put(ctx, name); err == nil {
			return nil
		}
		log.Printf("put %s: %v", name, err)
		time.Sleep(u.pause) // related "shadowstd.go:51: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}

// PutAll keeps a local variable named randv2: the new import takes the next free name.
func (u *Uploader) PutAll(ctx context.Context, names []string) error {
	randv2 := len(names) // a local that the import must not hide
	for _, name := range names {
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			if err = u.put(ctx, name); err == nil {
				break
			}
			time.Sleep(time.Second) // related "shadowstd.go:66: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
		}
		if err != nil {
			return fmt.Errorf("%d blobs: %w", randv2, err)
		}
	}
	return nil
}

// Ping waits an untyped constant: rand.N gets a time.Duration.
func (u *Uploader) Ping(ctx context.Context) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = u.put(ctx, "ping"); err == nil {
			return nil
		}
		time.Sleep(250000000) // related "shadowstd.go:82: retry loop" // want `retry loop waits a fixed 250ms between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}
