// Package valueclient is a queue worker that invokes functions over HTTP: its client is an
// http.Client value that a constructor returns, used from the message handler's closure.
package valueclient

import (
	"bytes"
	"encoding/json"
	"io"
	"log"
	"net"
	"net/http"
	"time"
)

type queueRequest struct {
	Function    string            `json:"function"`
	Body        []byte            `json:"body"`
	Header      map[string]string `json:"header"`
	CallbackURL string            `json:"callbackUrl"`
}

// makeClient: a dial timeout, no overall Timeout.
func makeClient() http.Client {
	tr := &http.Transport{
		Proxy: http.ProxyFromEnvironment,
		DialContext: (&net.Dialer{
			Timeout:   30 * time.Second,
			KeepAlive: 0,
		}).DialContext,
		MaxIdleConns:      1,
		DisableKeepAlives: true,
		IdleConnTimeout:   120 * time.Millisecond,
	}
	proxyClient := http.Client{ // related "valueclient.go:81: Client.Do sends a request without a context through it", "valueclient.go:73: http.NewRequest gives the request no context", "valueclient.go:89: postResult sends a request without a context through it", "valueclient.go:46: http.NewRequest gives the request no context" // want `this http.Client has no Timeout, so a stalled server hangs Client.Do \(and 1 other call\); set Timeout`
		Transport: tr,
	}
	return proxyClient
}

// makeBoundedClient sets one: its sends are not reported.
func makeBoundedClient(timeout time.Duration) http.Client {
	return http.Client{Timeout: timeout, Transport: &http.Transport{DisableKeepAlives: true}}
}

func postResult(client *http.Client, result []byte, callbackURL string) (int, error) {
	req, err := http.NewRequest(http.MethodPost, callbackURL, bytes.NewReader(result))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := client.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode, nil
}

func subscribe(gateway string, handle func([]byte)) {
	_ = gateway
	_ = handle
}

func run(gateway string) {
	client := makeClient()
	handler := func(msg []byte) {
		var qr queueRequest
		if err := json.Unmarshal(msg, &qr); err != nil {
			log.Printf("unmarshal: %v", err)
			return
		}
		req, err := http.NewRequest(http.MethodPost, gateway+"/function/"+qr.Function, bytes.NewReader(qr.Body))
		if err != nil {
			log.Printf("request: %v", err)
			return
		}
		for k, v := range qr.Header {
			req.Header.Set(k, v)
		}
		res, err := client.Do(req)
		if err != nil {
			log.Printf("invoke %s: %v", qr.Function, err)
			return
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if qr.CallbackURL != "" {
			if status, err := postResult(&client, body, qr.CallbackURL); err != nil {
				log.Printf("callback %s: %d %v", qr.CallbackURL, status, err)
			}
		}
	}
	subscribe(gateway, handler)
}

func runBounded(gateway string) {
	client := makeBoundedClient(30 * time.Second)
	handler := func(msg []byte) {
		req, err := http.NewRequest(http.MethodPost, gateway+"/function/echo", bytes.NewReader(msg))
		if err != nil {
			return
		}
		res, err := client.Do(req)
		if err != nil {
			return
		}
		res.Body.Close()
	}
	subscribe(gateway, handler)
}
