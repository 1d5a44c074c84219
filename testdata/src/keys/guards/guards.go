// Package guards: a key made only when its own destination is empty is filled in once; a
// test of anything else (an error, a response, another header) guards nothing about it.
package guards

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"

	"github.com/google/uuid"
	stripe "github.com/stripe/stripe-go/v82"
)

type body struct {
	Amount int64   `json:"amount"`
	Key    string  `json:"idempotency_key"`
	Ref    *string `json:"client_token"`
	Note   string  `json:"note"`
}

// ---- Fills in a missing key ----

func variable(ctx context.Context, key string) (*http.Request, error) { // want variable:`sends parameters \[1\] to header "Idempotency-Key"`
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/v1/charges", nil)
	if err != nil {
		return nil, err
	}
	if key == "" {
		key = uuid.NewString() // want `uuid.NewString: sent as header "Idempotency-Key"; fills in a missing key`
	}
	req.Header.Set("Idempotency-Key", key)
	return req, nil
}

func headerGet(req *http.Request) {
	if req.Header.Get("Idempotency-Key") == "" {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key"; fills in a missing key`
	}
}

func headerValues(req *http.Request) {
	if vs := req.Header.Values("idempotency-key"); len(vs) == 0 {
		req.Header.Add("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key"; fills in a missing key`
	}
}

func headerMap(h http.Header) {
	if _, ok := h["Idempotency-Key"]; !ok {
		h["Idempotency-Key"] = []string{uuid.NewString()} // want `uuid.NewString: sent as header "Idempotency-Key"; fills in a missing key`
	}
}

func field(b *body) ([]byte, error) {
	if b.Key == "" {
		b.Key = uuid.NewString() // want `uuid.NewString: sent as field Key; fills in a missing key`
	}
	return json.Marshal(b)
}

func pointerField(b *body) {
	if b.Ref == nil {
		ref := uuid.NewString() // want `uuid.NewString: sent as field Ref; fills in a missing key`
		b.Ref = &ref
	}
}

func setter(p *stripe.PaymentIntentParams) {
	if p.IdempotencyKey == nil {
		p.SetIdempotencyKey(uuid.NewString()) // want `uuid.NewString: sent as SetIdempotencyKey; fills in a missing key`
	}
}

func elseBranch(p *stripe.PaymentIntentParams) string {
	var key string
	if p.IdempotencyKey != nil {
		key = *p.IdempotencyKey
	} else {
		key = uuid.NewString() // want `uuid.NewString: not sent as a key; returned; fills in a missing key`
	}
	return key
}

// The caller's key when given, a new one otherwise, sent to the same header.
func callersOrNew(req *http.Request, p *stripe.PaymentIntentParams) { // want callersOrNew:`sends parameters \[1\] to header "Idempotency-Key"`
	if p.IdempotencyKey != nil {
		req.Header.Add("Idempotency-Key", *p.IdempotencyKey)
	} else if req.Method == http.MethodPost {
		req.Header.Add("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key"; fills in a missing key`
	}
}

// ---- Guards nothing about the key ----

// The caller's value goes to another header than the new key.
func callersOtherHeader(req *http.Request, p *stripe.PaymentIntentParams) { // want callersOtherHeader:`mints a key`
	if p.IdempotencyKey != nil {
		req.Header.Add("X-Trace", *p.IdempotencyKey)
	} else {
		req.Header.Add("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key"$`
	}
}

func afterErrorCheck(ctx context.Context, amount int64) (*http.Response, error) { // want afterErrorCheck:`mints a key`
	payload, err := json.Marshal(body{Amount: amount})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/v1/charges", bytes.NewReader(payload))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key"$`
	return http.DefaultClient.Do(req)
}

func insideErrorCheck(req *http.Request, prev error) { // want insideErrorCheck:`mints a key`
	if prev != nil {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key"$`
	}
}

func otherHeader(req *http.Request) { // want otherHeader:`mints a key`
	if req.Header.Get("Authorization") == "" {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key"$`
	}
}

func otherField(b *body) { // want otherField:`mints a key: uuid.NewString at guards.go:132 sent as field Key`
	if b.Note == "" {
		b.Key = uuid.NewString() // want `uuid.NewString: sent as field Key$`
	}
}

func otherLookup(h http.Header, cache map[string]string, id string) { // want otherLookup:`mints a key`
	if _, ok := cache[id]; !ok {
		h.Set("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key"$`
	}
}

func otherVariable(req *http.Request, key, trace string) { // want otherVariable:`sends parameters \[1\] to header "Idempotency-Key"` otherVariable:`mints a key`
	if trace == "" {
		key = uuid.NewString() // want `uuid.NewString: sent as header "Idempotency-Key"$`
	}
	req.Header.Set("Idempotency-Key", key)
}

func response(ctx context.Context, req *http.Request, resp *http.Response) { // want response:`mints a key`
	if resp == nil {
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `uuid.NewString: sent as header "Idempotency-Key"$`
	}
}
