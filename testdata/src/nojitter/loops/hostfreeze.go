package loops

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"
)

// A downloader whose errors are a concrete *transferError (nil when the transfer worked), and a
// host provider that hands out a host per attempt and is told which host failed.

type transferError struct {
	Code int
	Desc string
}

func (e *transferError) Error() string { return fmt.Sprintf("%d: %s", e.Code, e.Desc) }

func asTransferError(err error, code int) *transferError {
	if err == nil {
		return nil
	}
	return &transferError{Code: code, Desc: err.Error()}
}

type mirrorHost interface {
	Addr() string
}

// mirrorHosts hands out a host that is not frozen; Freeze takes a host out for a while.
type mirrorHosts interface {
	Provide() (mirrorHost, error)
	Freeze(h mirrorHost)
}

type transfer struct {
	hc    *http.Client
	hosts mirrorHosts
}

func newTransfer(hosts mirrorHosts) *transfer {
	return &transfer{hc: &http.Client{Timeout: 2 * time.Minute}, hosts: hosts}
}

func (t *transfer) fetch(ctx context.Context, host, key, to string) *transferError {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://"+host+"/"+key, nil)
	if err != nil {
		return asTransferError(err, 400)
	}
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := t.hc.Do(req)
	if err != nil {
		return asTransferError(err, 599)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return &transferError{Code: resp.StatusCode, Desc: resp.Status}
	}
	f, err := os.Create(to)
	if err != nil {
		return asTransferError(err, 600)
	}
	defer f.Close()
	if _, err := io.Copy(f, resp.Body); err != nil {
		return asTransferError(err, 599)
	}
	return nil
}

// part fetches one part through the first host, three times back to back: reported.
func (t *transfer) part(ctx context.Context, key, to string) *transferError {
	h, err := t.hosts.Provide()
	if err != nil {
		return asTransferError(err, 600)
	}
	var terr *transferError
	for i := 0; i < 3; i++ { // related "hostfreeze.go:82: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		terr = t.fetch(ctx, h.Addr(), key, to+".part")
		if terr == nil {
			break
		}
		slog.Debug("part failed", "key", key, "try", i, "err", terr)
	}
	return terr
}

// whole asks the provider for a host each round and freezes the one that failed: each round
// goes to another mirror, failover; not reported.
func (t *transfer) whole(ctx context.Context, key, to string) error {
	var terr *transferError
	for tries := 0; tries < 6; tries++ {
		h, err := t.hosts.Provide()
		if h == nil || err != nil {
			return errors.Join(errors.New("no mirror left"), err)
		}
		terr = t.fetch(ctx, h.Addr(), key, to)
		if terr == nil {
			return nil
		}
		if terr.Code >= 400 && terr.Code < 500 {
			return terr
		}
		slog.Warn("mirror failed", "host", h.Addr(), "err", terr)
		t.hosts.Freeze(h)
	}
	return terr
}
