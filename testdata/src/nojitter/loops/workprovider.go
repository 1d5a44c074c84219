package loops

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// A batch command reads work items from a provider (a file of URLs, one per line) and sends
// them in batches; a line that fails to parse is skipped. The provider answers (hasMore, item,
// err): hasMore false ends the input.

type purgeWork struct{ URL string }

type purgeSource interface {
	Provide() (hasMore bool, work *purgeWork, err error)
}

type urlLines struct{ sc *bufio.Scanner }

func (s *urlLines) Provide() (bool, *purgeWork, error) {
	if !s.sc.Scan() {
		return false, nil, s.sc.Err()
	}
	line := strings.TrimSpace(s.sc.Text())
	if !strings.HasPrefix(line, "http") {
		return true, nil, fmt.Errorf("not a URL: %q", line)
	}
	return true, &purgeWork{URL: line}, nil
}

type purger struct {
	hc  *http.Client
	api string
}

func (p *purger) purge(ctx context.Context, urls []string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.api+"/purge", strings.NewReader(strings.Join(urls, "\n")))
	if err != nil {
		return err
	}
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != http.StatusOK {
		return errors.New(resp.Status)
	}
	return nil
}

// PurgeAll drains the source, skipping the lines that fail: iteration, not reported.
func (p *purger) PurgeAll(ctx context.Context, src purgeSource) error {
	batch := make([]string, 0, 50)
	for {
		hasMore, w, err := src.Provide()
		if err != nil {
			slog.Warn("skipping line", "err", err)
			continue
		}
		if !hasMore {
			break
		}
		batch = append(batch, w.URL)
		if len(batch) == 50 {
			if err := p.purge(ctx, batch); err != nil {
				return err
			}
			batch = batch[:0]
		}
	}
	if len(batch) > 0 {
		return p.purge(ctx, batch)
	}
	return nil
}

// statusPage is one answer of a status endpoint, with a flag that says whether to ask again.
type statusPage struct{ Done int }

// askStatus answers (page, again, err); again is true when the request failed in a way worth
// repeating.
func (p *purger) askStatus(ctx context.Context, id string) (*statusPage, bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.api+"/purge/"+id, nil)
	if err != nil {
		return nil, false, err
	}
	resp, err := p.hc.Do(req)
	if err != nil {
		return nil, true, err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 500 {
		return nil, true, errors.New(resp.Status)
	}
	return &statusPage{Done: 1}, false, nil
}

// Status asks again after a fixed pause while askStatus says so: reported.
func (p *purger) Status(ctx context.Context, id string) (*statusPage, error) {
	for attempt := 0; ; attempt++ {
		page, again, err := p.askStatus(ctx, id)
		if !again || attempt == 4 {
			return page, err
		}
		time.Sleep(2 * time.Second) // related "workprovider.go:109: retry loop" // want `retry loop waits a fixed 2s between attempts, so clients that failed together retry together; add jitter`
	}
}
