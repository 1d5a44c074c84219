// Package seqid is a client of an API that numbers each command with a sequence id in its URL:
// every attempt of one command sends the same id, and the server answers a repeated id with
// the first answer.
package seqid

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

type Client struct {
	baseURL string
	session string
	client  *http.Client
	retries int
	logf    func(string, ...any)

	mu  sync.Mutex
	seq int64

	cmdSeq atomic.Uint64
	evSeq  uint64
}

func New(base string) *Client {
	return &Client{baseURL: base, client: &http.Client{Timeout: 30 * time.Second}, retries: 5, logf: log.Printf}
}

// ---- Not reported: the sequence id is read before the attempts and advanced once per call ----

func (c *Client) command(body []byte) ([]byte, error) {
	c.mu.Lock()
	defer func() {
		c.seq++
		c.mu.Unlock()
	}()

	url := fmt.Sprintf("%s/cs?id=%d", c.baseURL, c.seq)
	if c.session != "" {
		url += "&sid=" + c.session
	}
	var lastErr error
	wait := 100 * time.Millisecond
	for i := 0; i <= c.retries; i++ {
		if i > 0 {
			c.logf("retrying command %d/%d: %v", i, c.retries, lastErr)
			time.Sleep(wait)
			wait *= 2
		}
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := c.client.Do(req)
		if err != nil {
			lastErr = err
			continue
		}
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			lastErr = err
			continue
		}
		if resp.StatusCode >= 500 {
			lastErr = fmt.Errorf("server error %d", resp.StatusCode)
			continue
		}
		return data, nil
	}
	return nil, lastErr
}

func (c *Client) Rename(node, name string) error {
	body, err := json.Marshal([]map[string]string{{"a": "mv", "n": node, "name": name}})
	if err != nil {
		return err
	}
	_, err = c.command(body)
	return err
}

func (c *Client) createFolder(parent, name string) ([]byte, error) {
	id := c.cmdSeq.Add(1)
	body, _ := json.Marshal(map[string]any{"a": "p", "t": parent, "n": name})
	url := fmt.Sprintf("%s/cs?id=%d", c.baseURL, id)
	for attempt := 0; ; attempt++ {
		resp, err := c.client.Post(url, "application/json", bytes.NewReader(body))
		if err == nil {
			defer resp.Body.Close()
			return io.ReadAll(resp.Body)
		}
		if attempt == 3 {
			return nil, err
		}
		time.Sleep(time.Duration(attempt+1) * 200 * time.Millisecond)
	}
}

// ---- Reported ----

// The id advances on every attempt: each one is a new command to the server.
func (c *Client) event(body []byte) error {
	var err error
	for i := 0; i < 3; i++ {
		id := atomic.AddUint64(&c.evSeq, 1)
		var resp *http.Response
		resp, err = c.client.Post(fmt.Sprintf("%s/ev?id=%d", c.baseURL, id), "application/json", bytes.NewReader(body)) // related "seqid.go:114: retry loop" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(500 * time.Millisecond)
	}
	return err
}

// The session is read before the attempts but nothing advances it: every command carries it.
func (c *Client) share(node string) error {
	url := c.baseURL + "/cs?sid=" + c.session
	body := []byte(`{"a":"l","n":"` + node + `"}`)
	for i := 0; i < 3; i++ {
		resp, err := c.client.Post(url, "application/json", bytes.NewReader(body)) // related "seqid.go:131: retry loop" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			return nil
		}
	}
	return errors.New("share failed")
}

type counter struct{ n int }

// A counter of a value the function makes starts again on every call: every call sends id=1.
func (c *Client) importNode(node string) error {
	var seq counter
	seq.n++
	url := fmt.Sprintf("%s/cs?id=%d&n=%s", c.baseURL, seq.n, node)
	for i := 0; i < 3; i++ {
		resp, err := c.client.Post(url, "application/json", nil) // related "seqid.go:152: retry loop" // want `a POST request is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errors.New("import failed")
}

type pool struct {
	client *http.Client
	addrs  []string
	next   uint32
}

// The counter picks a target before the attempts, it is not sent: no identifier.
func (p *pool) publish(body []byte) error {
	addr := p.addrs[atomic.AddUint32(&p.next, 1)%uint32(len(p.addrs))]
	for i := 0; i < 3; i++ {
		resp, err := p.client.Post(addr+"/publish", "application/json", bytes.NewReader(body)) // related "seqid.go:173: retry loop" // want `POST /publish is retried without an idempotency key, so a retry can repeat it; send one made before the retries`
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errors.New("publish failed")
}
