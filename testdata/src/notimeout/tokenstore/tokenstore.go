// Package tokenstore is an object-store client that authorises with tokenauth: its
// constructor finds credentials with the context it is given and keeps it inside the token
// source it makes. Each request of the store takes its own context.
package tokenstore

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"notimeout/tokenauth"
)

type Store struct {
	base string
	hc   *http.Client
	src  *tokenauth.Source
}

// New makes a store client; ctx is for finding the credentials.
func New(ctx context.Context, base string, conf *tokenauth.Config) (*Store, error) {
	if conf.ClientID == "" {
		return nil, fmt.Errorf("tokenstore: no client ID")
	}
	return &Store{base: base, hc: &http.Client{Timeout: time.Minute}, src: conf.NewSource(ctx)}, nil
}

// Get reads an object.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	tok, err := s.src.Token()
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/"+key, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
	resp, err := s.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("get %s: %s", key, resp.Status)
	}
	return io.ReadAll(resp.Body)
}
