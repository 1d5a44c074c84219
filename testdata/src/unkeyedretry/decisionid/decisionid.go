// Package decisionid asks a scoring service for a decision. The service that wraps the client
// names each decision with a UUID it makes once, and the client sends it in the body of every
// attempt: an identifier the scoring service deduplicates on.
package decisionid

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"

	"github.com/google/uuid"
)

type Attribute struct {
	ID    string `json:"id"`
	Value any    `json:"value"`
}

type scoreRequest struct {
	Visitor    string      `json:"visitor"`
	Rule       string      `json:"rule"`
	Attributes []Attribute `json:"attributes"`
	DecisionID string      `json:"decisionId"`
}

type scoreResponse struct {
	Variation string `json:"variation"`
}

// Scorer fetches decisions.
type Scorer interface {
	Score(rule, visitor string, attrs map[string]any, decisionID string) (string, error)
}

// Client is the scoring service's client.
type Client struct {
	http     *http.Client
	endpoint string
	retries  int
	backoff  time.Duration
}

func NewClient(endpoint string) *Client {
	return &Client{http: &http.Client{Timeout: 10 * time.Second}, endpoint: endpoint, retries: 2, backoff: 200 * time.Millisecond}
}

// Score sends the decision's identifier in the body of every attempt.
func (c *Client) Score(rule, visitor string, attrs map[string]any, decisionID string) (string, error) {
	in := scoreRequest{Visitor: visitor, Rule: rule, DecisionID: decisionID}
	for k, v := range attrs {
		in.Attributes = append(in.Attributes, Attribute{ID: k, Value: v})
	}
	body, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("marshal score request: %w", err)
	}
	var last error
	for i := 0; i <= c.retries; i++ {
		v, err := c.post(context.Background(), body)
		if err == nil {
			return v, nil
		}
		last = err
		log.Printf("score %s (attempt %d): %v", rule, i+1, err)
		time.Sleep(c.backoff << i)
	}
	return "", fmt.Errorf("score %s: %w", rule, last)
}

// Label sends a label that its callers make up from a time stamp: not an identifier.
func (c *Client) Label(rule, visitor, label string) (string, error) {
	body, err := json.Marshal(scoreRequest{Visitor: visitor, Rule: rule, DecisionID: label})
	if err != nil {
		return "", err
	}
	var last error
	for i := 0; i <= c.retries; i++ {
		v, err := c.post(context.Background(), body) // related "decisionid.go:82: retry loop" "decisionid.go:100: sent here by post" // want `a POST request is retried with no idempotency key`
		if err == nil {
			return v, nil
		}
		last = err
		time.Sleep(c.backoff << i)
	}
	return "", last
}

func (c *Client) post(ctx context.Context, body []byte) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := c.http.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
		return "", fmt.Errorf("scoring service: %s: %s", resp.Status, b)
	}
	var out scoreResponse
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return "", err
	}
	return out.Variation, nil
}

// Service makes one decision identifier per decision and hands it to the scorer.
type Service struct {
	scorer Scorer
	client *Client
	cache  map[string]string
}

func NewService(endpoint string) *Service {
	c := NewClient(endpoint)
	return &Service{scorer: c, client: c, cache: make(map[string]string)}
}

func (s *Service) Decide(rule, visitor string, attrs map[string]any) (string, string, error) {
	if v, ok := s.cache[rule+"/"+visitor]; ok {
		return v, "", nil
	}
	id := uuid.New().String()
	v, err := s.scorer.Score(rule, visitor, attrs, id)
	if err != nil {
		return "", "", err
	}
	s.cache[rule+"/"+visitor] = v
	return v, id, nil
}

func (s *Service) Tag(rule, visitor string) (string, error) {
	return s.client.Label(rule, visitor, time.Now().Format(time.RFC3339))
}
