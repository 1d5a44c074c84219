// Package regions uploads to the first region of a group that takes the upload: after a
// failure it switches to the next region and goes round at once, for as long as the group
// has one (a failover, which needs no wait). Going round to the same region at once does.
package regions

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"
)

// group is a list of regions and the one in use.
type group struct {
	hosts []string
	cur   int
}

func (g *group) Current() string { return g.hosts[g.cur] }

// Switch moves to the next region and reports whether there was one.
func (g *group) Switch() bool {
	if g.cur+1 >= len(g.hosts) {
		return false
	}
	g.cur++
	return true
}

var client = &http.Client{Timeout: time.Minute}

func put(ctx context.Context, host, key string, data []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, "https://"+host+"/"+key, bytes.NewReader(data))
	if err != nil {
		return err
	}
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode >= 500 {
		return fmt.Errorf("put %s: %s", key, resp.Status)
	}
	return nil
}

func retryable(err error) bool {
	var ne net.Error
	return err != nil && (errors.As(err, &ne) || !errors.Is(err, context.Canceled))
}

// Upload tries each region once, in turn.
func Upload(ctx context.Context, hosts []string, key string, data []byte) error {
	g := &group{hosts: hosts}
	var err error
	for {
		err = put(ctx, g.Current(), key, data)
		if !retryable(err) {
			break
		}
		if !g.Switch() {
			break
		}
	}
	return err
}

// UploadAgain goes round to the same region at once, three times.
func UploadAgain(ctx context.Context, hosts []string, key string, data []byte) error {
	g := &group{hosts: hosts}
	var err error
	for attempt := 0; attempt < 3; attempt++ { // related "regions.go:76: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		err = put(ctx, g.Current(), key, data)
		if !retryable(err) {
			break
		}
	}
	return err
}
