package loops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"time"
)

// Waits that follow a local failure: a sampler that cannot start the CPU profile because
// another one runs waits for it to end, and a generator that rebuilds after asking a remote
// service for a fix retries the local build, not the service. Neither waits out a failing
// dependency, whatever else the loop sends.

type cpuSampler struct {
	hc       *http.Client
	endpoint string
	window   time.Duration
	stop     chan struct{}
	buf      bytes.Buffer
}

func (p *cpuSampler) upload(ctx context.Context, data []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.endpoint, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("upload profile: %s", resp.Status)
	}
	return nil
}

// ---- Not reported: the fixed wait follows a local failure (another profile runs) ----

func (p *cpuSampler) run(ctx context.Context) {
	timer := time.NewTimer(p.window)
	defer timer.Stop()
	for {
		select {
		case <-p.stop:
			return
		default:
		}
		p.buf.Reset()
		if err := pprof.StartCPUProfile(&p.buf); err != nil {
			log.Printf("profiler: start failed (another profile running?): %v", err)
			time.Sleep(30 * time.Second)
			continue
		}
		timer.Reset(p.window)
		<-timer.C
		pprof.StopCPUProfile()
		if err := p.upload(ctx, p.buf.Bytes()); err != nil {
			log.Printf("profiler: upload failed: %v", err)
			continue
		}
	}
}

// ---- Not reported: the build is retried; the remote fix is a step before going round ----

type buildFixer struct {
	hc  *http.Client
	api string
}

func (b *buildFixer) suggest(ctx context.Context, code, errors string) (string, error) {
	body, err := json.Marshal(map[string]string{"code": code, "errors": errors})
	if err != nil {
		return "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.api+"/fix", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := b.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	var out struct{ Code string }
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.Code, nil
}

func (b *buildFixer) compileFix(ctx context.Context, dir, file string, maxAttempts int) error {
	for attempt := 0; attempt < maxAttempts; attempt++ {
		cmd := exec.CommandContext(ctx, "go", "build", "./...")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err == nil {
			return nil
		}
		path := filepath.Join(dir, file)
		code, rerr := os.ReadFile(path)
		if rerr != nil {
			return rerr
		}
		fixed, ferr := b.suggest(ctx, string(code), string(out))
		if ferr != nil {
			return fmt.Errorf("fix attempt %d: %w", attempt+1, ferr)
		}
		if werr := os.WriteFile(path, []byte(fixed), 0o644); werr != nil {
			return werr
		}
	}
	return fmt.Errorf("still failing after %d fixes", maxAttempts)
}

// ---- Reported: the wait follows a remote failure that a local predicate judged ----

type sessionAuth struct {
	hc  *http.Client
	url string
}

type refusal struct{ status int }

func (r *refusal) Error() string { return fmt.Sprintf("refused: %d", r.status) }

func isClientRefusal(err error) (*refusal, bool) {
	r, ok := err.(*refusal)
	return r, ok && r.status < 500
}

func (a *sessionAuth) authorize(ctx context.Context) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url+"/sessions", nil)
	if err != nil {
		return "", err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		return "", &refusal{status: resp.StatusCode}
	}
	return resp.Header.Get("Location"), nil
}

func (a *sessionAuth) session(ctx context.Context) (string, error) {
	var id string
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i <= 5; i++ {
			id, err = a.authorize(ctx)
			if err == nil {
				return
			}
			if _, ok := isClientRefusal(err); ok {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second): // related "localwait.go:165: retry loop" // want `retry loop waits a fixed 1s between attempts, so clients that failed together retry together; add jitter`
			}
		}
	}()
	<-done
	return id, err
}
