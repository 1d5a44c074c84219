package service

import (
	"context"
	"fmt"
	"slices"
	"sync"
)

// MemoryRepo keeps payments in memory.
type MemoryRepo struct {
	mu       sync.Mutex
	payments map[string][]Payment // by tenant, in creation order
}

// NewMemoryRepo returns an empty MemoryRepo.
func NewMemoryRepo() *MemoryRepo { return &MemoryRepo{payments: make(map[string][]Payment)} }

// Create implements Repo.
func (m *MemoryRepo) Create(ctx context.Context, tenant string, p Payment) (Payment, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.payments[tenant] = append(m.payments[tenant], p)
	return p, nil
}

// MarkSucceeded implements Repo.
func (m *MemoryRepo) MarkSucceeded(ctx context.Context, tenant, id, chargeID string) (Payment, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ps := m.payments[tenant]
	i := slices.IndexFunc(ps, func(p Payment) bool { return p.ID == id })
	if i < 0 {
		return Payment{}, fmt.Errorf("marking %s succeeded: %w", id, ErrNotFound)
	}
	ps[i].Status, ps[i].ChargeID = "succeeded", chargeID
	return ps[i], nil
}

// Get implements Repo.
func (m *MemoryRepo) Get(ctx context.Context, tenant, id string) (Payment, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, p := range m.payments[tenant] {
		if p.ID == id {
			return p, nil
		}
	}
	return Payment{}, ErrNotFound
}

// List implements Repo.
func (m *MemoryRepo) List(ctx context.Context, tenant string) ([]Payment, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.payments[tenant]), nil
}

// MemoryProvider is an in-memory provider that deduplicates charges by key.
type MemoryProvider struct {
	mu      sync.Mutex
	charges []Charge
	byKey   map[string]int
}

// NewMemoryProvider returns a provider with no charges.
func NewMemoryProvider() *MemoryProvider { return &MemoryProvider{byKey: make(map[string]int)} }

// Charge implements Provider.
func (m *MemoryProvider) Charge(ctx context.Context, key string, amount int64, currency string) (Charge, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if i, ok := m.byKey[key]; ok {
		c := &m.charges[i]
		if c.Amount != amount || c.Currency != currency {
			return Charge{}, fmt.Errorf("provider: key %s was used for another charge", key)
		}
		c.Requests++
		return *c, nil
	}
	c := Charge{ID: newID("ch_"), Key: key, Amount: amount, Currency: currency, Requests: 1}
	m.byKey[key] = len(m.charges)
	m.charges = append(m.charges, c)
	return c, nil
}

// Charges implements Provider.
func (m *MemoryProvider) Charges(ctx context.Context) ([]Charge, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.charges), nil
}
