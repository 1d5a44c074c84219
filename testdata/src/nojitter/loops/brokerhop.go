package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// A runner that moves to a new broker asks it for its first message, up to five times, waiting
// longer each time. The broker's "nothing yet" comes back as io.EOF; the loop leaves on it as on
// success: a retry loop that ends at EOF, not a cursor that runs dry.
type brokerConn struct {
	hc      *http.Client
	baseURL string
}

func (b *brokerConn) poll(ctx context.Context, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.baseURL+path, nil)
	if err != nil {
		return err
	}
	resp, err := b.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNoContent:
		return io.EOF
	case resp.StatusCode >= 300:
		return fmt.Errorf("broker %s: %s", path, resp.Status)
	}
	return nil
}

func (b *brokerConn) Migrate(ctx context.Context, target string) error {
	var err error
	for tries := 0; tries < 5; tries++ {
		next := *b
		conn := &next
		conn.baseURL = target
		err = conn.poll(ctx, "/message")
		if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(5 * time.Second * time.Duration(tries+1)): // related "brokerhop.go:41: retry loop" // want `retry loop backs off without jitter, so clients that failed together retry together, in waves; add jitter`
		}
	}
	return err
}
