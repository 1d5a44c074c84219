// Package exchangesdk is the client of a trading API: its constructors fill an exported
// HTTPClient field (the default client, or one with a proxy), and every service sends through
// one request function that a test can replace with a function-valued field. Each
// constructor's client has no Timeout: reported where it is made, once.
package exchangesdk

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"time"
)

type doFunc func(*http.Request) (*http.Response, error)

// Client sends the API's requests.
type Client struct {
	APIKey     string
	SecretKey  string
	BaseURL    string
	UserAgent  string
	HTTPClient *http.Client
	Debug      bool
	Logger     *log.Logger
	TimeOffset int64
	do         doFunc
}

// ---- Reported: the default client, and a proxied one, have no Timeout ----

// NewClient makes a client on http.DefaultClient.
func NewClient(apiKey, secretKey string) *Client {
	return &Client{
		APIKey:     apiKey,
		SecretKey:  secretKey,
		BaseURL:    "https://api.example.com",
		UserAgent:  "exchange/go",
		HTTPClient: http.DefaultClient, // related "exchangesdk.go:129: Client.callAPI sends a request with its caller's context through it" "exchangesdk.go:29: a client given here replaces the default" // want `http\.DefaultClient has no Timeout as the default, so Client\.callAPI can hang; use a client with a Timeout`
		Logger:     log.New(os.Stderr, "exchange ", log.LstdFlags),
	}
}

// NewProxiedClient makes a client that goes through a proxy.
func NewProxiedClient(apiKey, secretKey, proxyURL string) *Client {
	proxy, err := url.Parse(proxyURL)
	if err != nil {
		log.Fatal(err)
	}
	tr := &http.Transport{
		Proxy:           http.ProxyURL(proxy),
		TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12},
	}
	return &Client{
		APIKey:    apiKey,
		SecretKey: secretKey,
		BaseURL:   "https://api.example.com",
		UserAgent: "exchange/go",
		HTTPClient: &http.Client{ // related "exchangesdk.go:129: Client.callAPI sends a request with its caller's context through it" // want `this http\.Client has no Timeout by default, so Client\.callAPI can hang; set a default Timeout`
			Transport: tr,
		},
		Logger: log.New(os.Stderr, "exchange ", log.LstdFlags),
	}
}

type request struct {
	method   string
	endpoint string
	query    url.Values
	body     any
	signed   bool
	fullURL  string
	header   http.Header
	payload  io.Reader
}

func (c *Client) debug(format string, v ...any) {
	if c.Debug {
		c.Logger.Printf(format, v...)
	}
}

func (c *Client) parseRequest(r *request) error {
	r.header = http.Header{}
	r.header.Set("User-Agent", c.UserAgent)
	r.header.Set("X-API-KEY", c.APIKey)
	var buf bytes.Buffer
	if r.body != nil {
		if err := json.NewEncoder(&buf).Encode(r.body); err != nil {
			return fmt.Errorf("encode: %w", err)
		}
		r.header.Set("Content-Type", "application/json")
	}
	if r.signed {
		if r.query == nil {
			r.query = url.Values{}
		}
		r.query.Set("timestamp", fmt.Sprint(time.Now().UnixMilli()-c.TimeOffset))
	}
	r.fullURL = c.BaseURL + r.endpoint
	if q := r.query.Encode(); q != "" {
		r.fullURL += "?" + q
	}
	r.payload = &buf
	return nil
}

func (c *Client) callAPI(ctx context.Context, r *request) ([]byte, error) {
	if err := c.parseRequest(r); err != nil {
		return nil, err
	}
	req, err := http.NewRequest(r.method, r.fullURL, r.payload)
	if err != nil {
		return nil, err
	}
	req = req.WithContext(ctx)
	req.Header = r.header
	c.debug("request: %s %s", req.Method, req.URL)
	f := c.do
	if f == nil {
		f = c.HTTPClient.Do
	}
	res, err := f(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	c.debug("response %d: %s", res.StatusCode, data)
	if res.StatusCode >= http.StatusBadRequest {
		return nil, fmt.Errorf("api error %d: %s", res.StatusCode, data)
	}
	return data, nil
}

// Order is a placed order.
type Order struct {
	Symbol  string `json:"symbol"`
	OrderID int64  `json:"orderId"`
	Status  string `json:"status"`
}

// CreateOrder places an order.
func (c *Client) CreateOrder(ctx context.Context, symbol string, qty float64) (*Order, error) {
	data, err := c.callAPI(ctx, &request{method: http.MethodPost, endpoint: "/api/v3/order", body: map[string]any{"symbol": symbol, "quantity": qty}, signed: true})
	if err != nil {
		return nil, err
	}
	var o Order
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, err
	}
	return &o, nil
}

// ServerTime asks the server's clock.
func (c *Client) ServerTime(ctx context.Context) (int64, error) {
	data, err := c.callAPI(ctx, &request{method: http.MethodGet, endpoint: "/api/v3/time"})
	if err != nil {
		return 0, err
	}
	var out struct {
		ServerTime int64 `json:"serverTime"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return 0, err
	}
	return out.ServerTime, nil
}

// ---- Not reported: the constructor sets the hook, so the default never runs ----

// MarketClient reads market data.
type MarketClient struct {
	baseURL string
	hc      *http.Client
	do      doFunc
}

// NewMarketClient makes a client whose requests go through a client with a timeout.
func NewMarketClient(baseURL string) *MarketClient {
	bounded := &http.Client{Timeout: 10 * time.Second}
	return &MarketClient{baseURL: baseURL, hc: &http.Client{}, do: bounded.Do}
}

// Depth reads the order book of a symbol.
func (m *MarketClient) Depth(ctx context.Context, symbol string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, m.baseURL+"/api/v3/depth?symbol="+url.QueryEscape(symbol), nil)
	if err != nil {
		return nil, err
	}
	f := m.do
	if f == nil {
		f = m.hc.Do
	}
	res, err := f(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	return io.ReadAll(res.Body)
}
