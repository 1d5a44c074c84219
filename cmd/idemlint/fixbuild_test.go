package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A module's code with one fixable finding of each kind the fixes write differently with and
// without idemlint's runtime: a fixed wait (nojitter), a retried POST (unkeyedretry), a
// client without a Timeout in a function whose parameter hides the time package
// (notimeout).
const fixable = `// Package orders sends orders to a fulfilment service.
package orders

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"
	"time"
)

type Client struct {
	HTTP    *http.Client
	BaseURL string
	Pause   time.Duration
}

// Place creates an order, retrying the POST.
func (c *Client) Place(ctx context.Context, body []byte) error {
	var err error
	for attempt := 0; attempt < 4; attempt++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, c.BaseURL+"/v1/orders", bytes.NewReader(body))
		if rerr != nil {
			return rerr
		}
		req.Header.Set("Content-Type", "application/json")
		var resp *http.Response
		if resp, err = c.HTTP.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode < 300 {
				return nil
			}
			err = fmt.Errorf("status %d", resp.StatusCode)
		}
		log.Printf("place: attempt %d: %v", attempt, err)
		time.Sleep(c.Pause)
	}
	return err
}

// Status asks for an order's status, retrying a fixed second apart.
func (c *Client) Status(ctx context.Context, id string) (int, error) {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/v1/orders/"+id, nil)
		if rerr != nil {
			return 0, rerr
		}
		var resp *http.Response
		if resp, err = c.HTTP.Do(req); err == nil {
			resp.Body.Close()
			return resp.StatusCode, nil
		}
		time.Sleep(time.Second)
	}
	return 0, err
}

// Probe checks a URL at a given time of day.
func Probe(url string, time string) error {
	hc := &http.Client{}
	log.Printf("probe %s at %s", url, time)
	resp, err := hc.Get(url)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
`

// TestFixBuilds applies every fix to a module that does not require idemlint's runtime and to
// one that does, and builds and vets each afterwards: a fix must build in the module as it is.
func TestFixBuilds(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	require.NoError(t, err)
	for _, tc := range []struct {
		name, gomod, extra string
		want, not          []string
	}{
		{
			name:  "without the runtime",
			gomod: "module example.com/orders\n\ngo 1.26\n",
			want:  []string{`crand "crypto/rand"`, "crand.Text()", "rand.N(time.Second)", "rand.Float64() * float64(c.Pause)", `time2 "time"`, "Timeout: 30 * time2.Second"},
			not:   []string{"github.com/idemlint/idemlint"},
		},
		{
			name:  "with the runtime",
			gomod: "module example.com/orders\n\ngo 1.26\n\nrequire github.com/idemlint/idemlint v0.0.0\n\nreplace github.com/idemlint/idemlint => " + root + "\n",
			extra: "package orders\n\nimport \"github.com/idemlint/idemlint/runtime/retry\"\n\nvar _ = retry.Policy{}\n",
			want:  []string{"idempotency.NewKey()", "retry.FullJitter(time.Second)", "retry.FullJitter(c.Pause)"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte(tc.gomod), 0o644))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "orders.go"), []byte(fixable), 0o644))
			if tc.extra != "" {
				require.NoError(t, os.WriteFile(filepath.Join(dir, "runtime.go"), []byte(tc.extra), 0o644))
			}
			r := run(t, dir, bin, "-fix", "./...")
			require.NotEqual(t, exitErrors, r.code, r.stderr)
			fixed := read(t, filepath.Join(dir, "orders.go"))
			for _, w := range tc.want {
				assert.Contains(t, fixed, w)
			}
			for _, n := range tc.not {
				assert.NotContains(t, fixed, n)
			}
			assert.False(t, strings.Contains(r.stderr, "conflict"), r.stderr)
			b := run(t, dir, "go", "build", "./...")
			assert.Equal(t, 0, b.code, "the fixed module does not build:\n%s\n%s", b.stderr, fixed)
			v := run(t, dir, "go", "vet", "./...")
			assert.Equal(t, 0, v.code, "go vet on the fixed module:\n%s", v.stderr)
		})
	}
}
