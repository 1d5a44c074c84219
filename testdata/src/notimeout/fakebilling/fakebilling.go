// Package fakebilling is a billing client for local development: its invoice download serves
// a generated PDF from an httptest server it starts itself, so the request never leaves the
// machine; the real download goes to the provider.
package fakebilling

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
)

type Invoice struct {
	ID     string
	Amount int64
}

type FakeClient struct {
	invoices map[string]Invoice
}

// ---- Not reported: the server is the process's own ----

func (c *FakeClient) DownloadInvoice(ctx context.Context, id string) (*http.Response, error) {
	inv, ok := c.invoices[id]
	if !ok {
		return nil, fmt.Errorf("invoice %s not found", id)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprintf(w, "%%PDF-1.4 invoice %s amount %d", inv.ID, inv.Amount)
	}))
	defer srv.Close()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL, http.NoBody)
	if err != nil {
		return nil, err
	}
	client := &http.Client{}
	return client.Do(req)
}

// ---- Reported: the provider's server ----

type Client struct {
	BaseURL string
}

func (c *Client) DownloadInvoice(ctx context.Context, id string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/invoices/"+id+".pdf", http.NoBody)
	if err != nil {
		return nil, err
	}
	client := &http.Client{} // related "fakebilling.go:54: Client.DownloadInvoice sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.DownloadInvoice can hang; set a default Timeout`
	return client.Do(req)
}
