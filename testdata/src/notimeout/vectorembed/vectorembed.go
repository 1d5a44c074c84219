// Package vectorembed calls a hosted embedding API. Its function keeps http.DefaultClient in
// an unexported field, and no option gives another: every user sends through a client with no
// Timeout, which the package chose. Reported once, where it is chosen.
package vectorembed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
)

const defaultEndpoint = "https://api.embed.example.com/v1/embeddings"

// Function embeds documents.
type Function struct {
	httpClient *http.Client
	apiKey     string
	model      string
	endpoint   string
}

// Option configures a Function.
type Option func(*Function) error

// WithModel sets the model.
func WithModel(m string) Option {
	return func(f *Function) error {
		if m == "" {
			return errors.New("empty model")
		}
		f.model = m
		return nil
	}
}

// WithEndpoint sets the endpoint.
func WithEndpoint(u string) Option {
	return func(f *Function) error { f.endpoint = u; return nil }
}

func defaults() *Function {
	return &Function{
		httpClient: http.DefaultClient, // related "vectorembed.go:91: Function.send sends a request with its caller's context through it" // want `http\.DefaultClient has no Timeout as the default, so Function\.send can hang; use a client with a Timeout`
		model:      "embed-small",
		endpoint:   defaultEndpoint,
	}
}

// New returns a Function configured by opts.
func New(opts ...Option) (*Function, error) {
	f := defaults()
	for _, o := range opts {
		if err := o(f); err != nil {
			return nil, err
		}
	}
	if f.apiKey = os.Getenv("EMBED_API_KEY"); f.apiKey == "" {
		return nil, errors.New("EMBED_API_KEY is not set")
	}
	return f, nil
}

type request struct {
	Model string   `json:"model"`
	Input []string `json:"input"`
}

type response struct {
	Data []struct {
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

func (f *Function) send(ctx context.Context, in request) (*response, error) {
	body, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+f.apiKey)
	resp, err := f.httpClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embedding request: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		msg, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<12))
		return nil, fmt.Errorf("embedding request: %s: %s", resp.Status, msg)
	}
	var out response
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("decoding embeddings: %w", err)
	}
	return &out, nil
}

// EmbedDocuments embeds docs.
func (f *Function) EmbedDocuments(ctx context.Context, docs []string) ([][]float32, error) {
	out, err := f.send(ctx, request{Model: f.model, Input: docs})
	if err != nil {
		return nil, err
	}
	vecs := make([][]float32, 0, len(out.Data))
	for _, d := range out.Data {
		vecs = append(vecs, d.Embedding)
	}
	return vecs, nil
}

// EmbedQuery embeds one query.
func (f *Function) EmbedQuery(ctx context.Context, q string) ([]float32, error) {
	vecs, err := f.EmbedDocuments(ctx, []string{q})
	if err != nil {
		return nil, err
	}
	if len(vecs) != 1 {
		return nil, fmt.Errorf("expected 1 embedding, got %d", len(vecs))
	}
	return vecs[0], nil
}
