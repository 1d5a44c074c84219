// Package discovery stands in for a service registry with several backends behind one
// interface: an in-process one for tests and single-binary setups, and one that asks a
// registry server over HTTP.
package discovery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"
)

var ErrNotFound = errors.New("discovery: service not found")

type Node struct {
	ID      string `json:"id"`
	Address string `json:"address"`
}

type Service struct {
	Name  string  `json:"name"`
	Nodes []*Node `json:"nodes"`
}

// Registry finds the nodes of a service.
type Registry interface {
	Register(s *Service) error
	GetService(name string) ([]*Service, error)
	String() string
}

type memRegistry struct {
	mu       sync.RWMutex
	services map[string][]*Service
}

// NewMemoryRegistry returns a registry kept in this process.
func NewMemoryRegistry() Registry {
	return &memRegistry{services: make(map[string][]*Service)}
}

func (m *memRegistry) Register(s *Service) error {
	if s == nil || s.Name == "" {
		return errors.New("discovery: service without a name")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.services[s.Name] = append(m.services[s.Name], s)
	return nil
}

func (m *memRegistry) GetService(name string) ([]*Service, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	svcs, ok := m.services[name]
	if !ok {
		return nil, ErrNotFound
	}
	return svcs, nil
}

func (m *memRegistry) String() string { return "memory" }

type httpRegistry struct {
	base   string
	client *http.Client
}

// NewHTTPRegistry returns a registry that asks the registry server at base.
func NewHTTPRegistry(base string) Registry {
	return &httpRegistry{base: base, client: &http.Client{Timeout: 10 * time.Second}}
}

func (h *httpRegistry) Register(s *Service) error {
	return errors.New("discovery: register through the server's API")
}

func (h *httpRegistry) GetService(name string) ([]*Service, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.base+"/v1/services/"+name, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("discovery: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, ErrNotFound
	}
	var out []*Service
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

func (h *httpRegistry) String() string { return "http" }
