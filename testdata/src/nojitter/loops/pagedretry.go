package loops

import (
	"bufio"
	"context"
	"encoding/xml"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"time"
)

// A bucket lister that walks the pages of a listing and asks again for a page whose request
// failed: the marker moves only on success, so the failure's way round retries the same page.

type objectPage struct {
	Keys      []string `xml:"Contents>Key"`
	Truncated bool     `xml:"IsTruncated"`
	Next      string   `xml:"NextMarker"`
}

type bucketLister struct {
	hc   *http.Client
	base string
}

func newBucketLister(base string) *bucketLister {
	return &bucketLister{hc: &http.Client{Timeout: 20 * time.Second}, base: base}
}

func (b *bucketLister) page(ctx context.Context, bucket, prefix, marker string) (*objectPage, error) {
	q := url.Values{"prefix": {prefix}, "marker": {marker}, "max-keys": {"1000"}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+"/"+bucket+"?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/xml")
	req.Header.Set("User-Agent", "lister/1.0")
	resp, err := b.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("list %s: %s", bucket, resp.Status)
	}
	var p objectPage
	if err := xml.NewDecoder(resp.Body).Decode(&p); err != nil {
		return nil, fmt.Errorf("decode listing: %w", err)
	}
	return &p, nil
}

// Export writes every key under prefix to out, asking again at once, up to five times in a
// row, for a page that failed: reported.
func (b *bucketLister) Export(ctx context.Context, bucket, prefix, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	var (
		marker   string
		failures = 0
		maxFails = 5
	)
	for { // related "pagedretry.go:70: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		p, err := b.page(ctx, bucket, prefix, marker)
		if err != nil {
			slog.Warn("listing failed", "bucket", bucket, "marker", marker, "err", err)
			if failures < maxFails {
				failures++
				continue
			}
			return fmt.Errorf("list %s after %d failures: %w", bucket, failures, err)
		}
		failures = 0
		for _, k := range p.Keys {
			if _, err := fmt.Fprintln(w, k); err != nil {
				return err
			}
		}
		if !p.Truncated {
			break
		}
		marker = p.Next
	}
	return w.Flush()
}

// Sizes adds up the sizes listed under prefix; a page that fails with a marker to go on from
// is skipped: the failure's way round moves to the next page, iteration; not reported.
func (b *bucketLister) Sizes(ctx context.Context, bucket, prefix string) (int, []error) {
	var (
		marker string
		keys   int
		errs   []error
	)
	for {
		p, err := b.page(ctx, bucket, prefix, marker)
		if err != nil {
			errs = append(errs, err)
			if p != nil && p.Next != "" {
				marker = p.Next
				continue
			}
			return keys, errs
		}
		keys += len(p.Keys)
		if !p.Truncated {
			return keys, errs
		}
		marker = p.Next
	}
}
