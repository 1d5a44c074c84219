// Package etcdrecords: DNS records kept in etcd. A lookup on the query path bounds its reads
// with a timeout; asking for the remaining lease of each record with context.Background()
// does not, so a stalled etcd member hangs the query.
package etcdrecords

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
)

const etcdTimeout = 5 * time.Second

type Record struct {
	Host string `json:"host"`
	TTL  uint32 `json:"ttl"`
}

type Backend struct {
	Client *clientv3.Client
	Prefix string
	log    *slog.Logger
}

func New(endpoints []string, log *slog.Logger) (*Backend, error) {
	c, err := clientv3.New(clientv3.Config{Endpoints: endpoints, DialTimeout: 5 * time.Second})
	if err != nil {
		return nil, err
	}
	return &Backend{Client: c, Prefix: "/skydns", log: log}, nil
}

func (b *Backend) Records(ctx context.Context, name string) ([]Record, error) {
	ctx, cancel := context.WithTimeout(ctx, etcdTimeout)
	defer cancel()
	resp, err := b.Client.Get(ctx, b.Prefix+"/"+name, clientv3.WithPrefix())
	if err != nil {
		return nil, fmt.Errorf("etcd get %s: %w", name, err)
	}
	var out []Record
	for _, kv := range resp.Kvs {
		var r Record
		if err := json.Unmarshal(kv.Value, &r); err != nil {
			b.log.Warn("bad record", "key", string(kv.Key), "err", err)
			continue
		}
		r.TTL = b.ttl(kv, r.TTL)
		out = append(out, r)
	}
	return out, nil
}

// ---- Reported: the lease is asked for with no deadline ----

func (b *Backend) ttl(kv *clientv3.KeyValue, fallback uint32) uint32 {
	if kv.Lease == 0 {
		return fallback
	}
	resp, err := b.Client.TimeToLive(context.Background(), clientv3.LeaseID(kv.Lease)) // related "etcdrecords.go:63: context.Background() has no deadline" // want `Lease\.TimeToLive's context has no deadline, so a stalled server hangs this call; use context\.WithTimeout`
	if err != nil || resp.TTL <= 0 {
		return fallback
	}
	return uint32(resp.TTL)
}

// ---- Not reported: a lease kept alive for the process's life, and a watch ----

func (b *Backend) keep(id clientv3.LeaseID) error {
	ch, err := b.Client.KeepAlive(context.Background(), id)
	if err != nil {
		return err
	}
	go func() {
		for range ch {
		}
	}()
	return nil
}

func (b *Backend) watch(ctx context.Context, changed func()) {
	for range b.Client.Watch(ctx, b.Prefix, clientv3.WithPrefix()) {
		changed()
	}
}
