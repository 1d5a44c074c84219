// Package signalwait retries a registration on a timer that a signal can cut short: the
// timer's select waits between the attempts (the signal channel brings an event, not the
// attempt's result).
package signalwait

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type agent struct {
	server string
	client *http.Client
}

func (a *agent) register(ctx context.Context, name string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, a.server+"/v1/agents/"+name, bytes.NewReader([]byte(`{"state":"up"}`)))
	if err != nil {
		return err
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return fmt.Errorf("register: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("register: status %d", resp.StatusCode)
	}
	return nil
}

// Register tries five times, waiting a fixed period between tries unless SIGHUP asks for a
// try now.
func Register(ctx context.Context, server, name string, period time.Duration) error {
	a := &agent{server: server, client: &http.Client{Timeout: 10 * time.Second}}
	sigChan := make(chan os.Signal, 1)
	signal.Notify(sigChan, syscall.SIGHUP)
	defer signal.Stop(sigChan)
	var err error
	for i := 0; i < 5; i++ {
		if err = a.register(ctx, name); err == nil {
			return nil
		}
		log.Printf("register %s failed, will retry: %v", name, err)
		t := time.NewTimer(period) // related "signalwait.go:47: retry loop" // want `retry loop waits a fixed delay between attempts, so clients that failed together retry together; add jitter`
		select {
		case <-t.C:
		case <-sigChan:
			log.Printf("caught signal, trying now")
			t.Stop()
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
	return err
}
