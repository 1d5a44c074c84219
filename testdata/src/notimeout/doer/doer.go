// Package doer: a bot API client whose requests go through an interface of its own
// (HTTPClient, implemented by *http.Client). The plain constructor hands the general one a
// client without a timeout: the default most users run, reported where it is made.
package doer

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// HTTPClient sends the bot's requests; *http.Client is one.
type HTTPClient interface {
	Do(req *http.Request) (*http.Response, error)
}

type BotAPI struct {
	Token    string
	Client   HTTPClient
	endpoint string
	Debug    bool
}

type apiResponse struct {
	Ok          bool            `json:"ok"`
	Result      json.RawMessage `json:"result"`
	Description string          `json:"description"`
}

// NewBotAPI uses a default client.
func NewBotAPI(token string) (*BotAPI, error) {
	return NewBotAPIWithClient(token, "https://api.telegram.example/bot%s/%s", &http.Client{}) // related "doer.go:56: HTTPClient.Do sends a request without a context through it" "doer.go:50: http.NewRequest gives the request no context" "doer.go:80: HTTPClient.Do sends a request without a context through it" "doer.go:76: http.NewRequest gives the request no context" "doer.go:41: a client given here replaces the default" // want `this default http\.Client has no Timeout, so a stalled server hangs HTTPClient\.Do \(and 1 other call\); set Timeout`
}

// NewBotAPIWithClient uses the client it is given.
func NewBotAPIWithClient(token, endpoint string, client HTTPClient) (*BotAPI, error) {
	if token == "" {
		return nil, fmt.Errorf("empty token")
	}
	return &BotAPI{Token: token, Client: client, endpoint: endpoint}, nil
}

// MakeRequest sends one method call.
func (b *BotAPI) MakeRequest(method string, params url.Values) (*apiResponse, error) {
	req, err := http.NewRequest(http.MethodPost, fmt.Sprintf(b.endpoint, b.Token, method), strings.NewReader(params.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := b.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var out apiResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	if b.Debug {
		log.Printf("%s: ok=%v", method, out.Ok)
	}
	if !out.Ok {
		return &out, fmt.Errorf("%s: %s", method, out.Description)
	}
	return &out, nil
}

// UploadFile sends a file.
func (b *BotAPI) UploadFile(method string, r io.Reader) error {
	req, err := http.NewRequest(http.MethodPost, fmt.Sprintf(b.endpoint, b.Token, method), r)
	if err != nil {
		return err
	}
	resp, err := b.Client.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A client whose plain constructor gives a timeout: not reported.

type Notifier struct {
	hc  HTTPClient
	url string
}

func NewNotifier(u string) *Notifier {
	return NewNotifierWithClient(u, &http.Client{Timeout: 10 * time.Second})
}

func NewNotifierWithClient(u string, hc HTTPClient) *Notifier { return &Notifier{hc: hc, url: u} }

func (n *Notifier) Notify(msg string) error {
	req, err := http.NewRequest(http.MethodPost, n.url, strings.NewReader(msg))
	if err != nil {
		return err
	}
	resp, err := n.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A client only the caller gives: its choice, not reported here.

type Relay struct{ hc HTTPClient }

func NewRelay(hc HTTPClient) *Relay { return &Relay{hc: hc} }

func (r *Relay) Forward(req *http.Request) (*http.Response, error) { return r.hc.Do(req) }
