// Package ssestream is a client of a text generation API that answers with server-sent
// events: the response body is kept in a Stream whose Recv reads one event at a time.
package ssestream

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

type Config struct {
	BaseURL    string
	HTTPClient *http.Client
}

// DefaultConfig is what most users run.
func DefaultConfig(model, key string) Config {
	return Config{
		BaseURL:    fmt.Sprintf("https://api.example.com/v1/models/%s:stream?alt=sse&key=%s", model, key),
		HTTPClient: &http.Client{},
	}
}

type Client struct {
	config Config
}

func New(cfg Config) *Client { return &Client{config: cfg} }

type Chunk struct {
	Text string `json:"text"`
}

// Stream reads the events of one answer.
type Stream struct {
	reader   *bufio.Reader
	response *http.Response
}

var errDone = errors.New("stream done")

// Recv returns the next chunk, skipping comments and empty lines.
func (s *Stream) Recv() (Chunk, error) {
	for {
		line, err := s.reader.ReadBytes('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				return Chunk{}, errDone
			}
			return Chunk{}, fmt.Errorf("read event: %w", err)
		}
		line = bytes.TrimSpace(line)
		if !bytes.HasPrefix(line, []byte("data:")) {
			continue
		}
		var c Chunk
		if err := json.Unmarshal(bytes.TrimSpace(line[len("data:"):]), &c); err != nil {
			return Chunk{}, fmt.Errorf("decode event: %w", err)
		}
		return c, nil
	}
}

func (s *Stream) Close() error { return s.response.Body.Close() }

// ---- Not reported: the client's only request is read as a stream, which a Timeout would cut ----

func (c *Client) CreateStream(ctx context.Context, prompt string) (*Stream, error) {
	body, err := json.Marshal(map[string]string{"prompt": prompt})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.config.BaseURL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	resp, err := c.config.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return nil, fmt.Errorf("create stream: %s: %s", resp.Status, strings.TrimSpace(string(b)))
	}
	return &Stream{reader: bufio.NewReader(resp.Body), response: resp}, nil
}
