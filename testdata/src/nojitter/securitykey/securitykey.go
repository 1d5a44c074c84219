// Package securitykey signs a login's second-factor challenge with a security key plugged into
// this machine. Opening the key is retried a few times with a fixed pause, through an
// interface whose method only this package's types have (tests stand in for it): every
// attempt stays on this machine, so there is no herd to spread. A notifier reached the same
// way that posts to a webhook is remote, and its fixed pause is reported.
package securitykey

import (
	"context"
	"errors"
	"fmt"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

const (
	maxOpenRetries = 10
	openRetryDelay = 200 * time.Millisecond
)

var errNoDevice = errors.New("no security key found")

// Device is an opened security key.
type Device interface {
	Sign(challenge []byte) ([]byte, error)
	Close() error
}

// DeviceFinder finds and opens a key; tests replace it.
type DeviceFinder interface {
	findDevice() (Device, error)
}

type hidDevice struct {
	path string
	f    *os.File
}

func (d *hidDevice) Sign(challenge []byte) ([]byte, error) {
	if _, err := d.f.Write(challenge); err != nil {
		return nil, fmt.Errorf("write to %s: %w", d.path, err)
	}
	buf := make([]byte, 64)
	n, err := d.f.Read(buf)
	if err != nil {
		return nil, fmt.Errorf("read from %s: %w", d.path, err)
	}
	return buf[:n], nil
}

func (d *hidDevice) Close() error { return d.f.Close() }

// HIDFinder opens the first key among the hidraw devices.
type HIDFinder struct{ Glob string }

func (h *HIDFinder) findDevice() (Device, error) {
	paths, err := filepath.Glob(h.Glob)
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, errNoDevice
	}
	var last error
	for _, p := range paths {
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			last = err
			continue
		}
		return &hidDevice{path: p, f: f}, nil
	}
	return nil, fmt.Errorf("open security key: %w", last)
}

// KeyClient signs challenges with an opened key.
type KeyClient struct {
	dev     Device
	appID   string
	session string
}

// NewKeyClient opens a key, again while another program holds it (busy), up to ten times.
func NewKeyClient(appID, session string, finder DeviceFinder) (*KeyClient, error) {
	for attempt := 0; attempt < maxOpenRetries; attempt++ {
		dev, err := finder.findDevice()
		if err != nil {
			if errors.Is(err, errNoDevice) {
				return nil, err
			}
			log.Printf("security key busy (attempt %d): %v", attempt+1, err)
			time.Sleep(openRetryDelay)
			continue
		}
		return &KeyClient{dev: dev, appID: appID, session: session}, nil
	}
	return nil, fmt.Errorf("security key: still busy after %d attempts", maxOpenRetries)
}

// Notifier tells someone that a login needs a touch of the key.
type Notifier interface {
	notify(ctx context.Context, msg string) error
}

type webhookNotifier struct {
	hc  *http.Client
	url string
}

func (w *webhookNotifier) notify(ctx context.Context, msg string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, strings.NewReader(msg))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "text/plain")
	resp, err := w.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return fmt.Errorf("webhook: status %d", resp.StatusCode)
	}
	return nil
}

// NewWebhookNotifier posts to url.
func NewWebhookNotifier(url string) Notifier {
	return &webhookNotifier{hc: &http.Client{Timeout: 10 * time.Second}, url: url}
}

// Remind tells the user to touch the key, three times at most.
func Remind(ctx context.Context, n Notifier, user string) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		if err = n.notify(ctx, "touch your security key, "+user); err == nil {
			return nil
		}
		log.Printf("reminder for %s: %v", user, err)
		time.Sleep(2 * time.Second) // related "securitykey.go:139: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
	}
	return err
}
