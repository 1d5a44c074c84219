// Package svcsdk is an SDK whose services are interfaces (for callers' mocks), each filled by
// one type of the package. Orders retries its requests on 5xx and transport errors; Reports
// sends once; Exporter has two implementations, one of which retries.
package svcsdk

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"time"
)

type Order struct {
	ID     string `json:"id"`
	Amount int64  `json:"amount"`
}

type OrdersService interface {
	Create(ctx context.Context, o Order, key string) (*Order, error)
}

type ReportsService interface {
	Get(ctx context.Context, id string) ([]byte, error)
}

type Exporter interface {
	Export(ctx context.Context, data []byte) error
}

type Client struct {
	Orders  OrdersService
	Reports ReportsService
}

func New(base string) *Client {
	hc := &http.Client{Timeout: 20 * time.Second}
	return &Client{Orders: &ordersService{hc: hc, base: base, maxRetries: 3}, Reports: &reportsService{hc: hc, base: base}}
}

type ordersService struct {
	hc         *http.Client
	base       string
	maxRetries int
}

func (s *ordersService) Create(ctx context.Context, o Order, key string) (*Order, error) {
	body, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	var lastErr error
	for attempt := 0; attempt <= s.maxRetries; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/orders", bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", key)
		resp, err := s.hc.Do(req)
		if err == nil {
			if resp.StatusCode < 500 {
				defer resp.Body.Close()
				if resp.StatusCode != http.StatusCreated {
					return nil, fmt.Errorf("svcsdk: status %d", resp.StatusCode)
				}
				var out Order
				return &out, json.NewDecoder(resp.Body).Decode(&out)
			}
			resp.Body.Close()
			err = fmt.Errorf("svcsdk: status %d", resp.StatusCode)
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(rand.Int64N(int64(time.Second << attempt)))):
		}
	}
	return nil, lastErr
}

type reportsService struct {
	hc   *http.Client
	base string
}

func (s *reportsService) Get(ctx context.Context, id string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/reports/"+id, nil)
	if err != nil {
		return nil, err
	}
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("svcsdk: status %d", resp.StatusCode)
	}
	return io.ReadAll(resp.Body)
}

type httpExporter struct {
	hc  *http.Client
	url string
}

func (e *httpExporter) Export(ctx context.Context, data []byte) error {
	for attempt := 0; attempt < 3; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, e.url, bytes.NewReader(data))
		if err != nil {
			return err
		}
		resp, err := e.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second << attempt))))
	}
	return fmt.Errorf("svcsdk: export failed")
}

type discardExporter struct{}

func (discardExporter) Export(context.Context, []byte) error { return nil }

func NewExporter(url string) Exporter {
	if url == "" {
		return discardExporter{}
	}
	return &httpExporter{hc: &http.Client{Timeout: 10 * time.Second}, url: url}
}

// Sender sends a request; the package's one implementation is a retrying layer over another
// Sender the caller gives: which Sender a caller holds is not the package's to know.
type Sender interface {
	Send(req *http.Request) (*http.Response, error)
}

type RetryingSender struct {
	Next     Sender
	Attempts int
}

func (s *RetryingSender) Send(req *http.Request) (*http.Response, error) {
	var lastErr error
	for attempt := 0; attempt < s.Attempts; attempt++ {
		resp, err := s.Next.Send(req)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		time.Sleep(time.Duration(rand.Int64N(int64(time.Second << attempt))))
	}
	return nil, lastErr
}
