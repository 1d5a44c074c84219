// Package clientv3 is a stub of etcd's client: the shapes of its key-value and lease APIs.
package clientv3

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

type (
	LeaseID int64
	OpOption func(*Op)
	Op       struct{}
)

type GetResponse struct {
	Kvs []*KeyValue
}

type KeyValue struct {
	Key, Value []byte
	Lease      int64
}

type PutResponse struct{}

type DeleteResponse struct{ Deleted int64 }

type LeaseTimeToLiveResponse struct {
	TTL int64
}

type LeaseKeepAliveResponse struct{ TTL int64 }

type KV interface {
	Get(ctx context.Context, key string, opts ...OpOption) (*GetResponse, error)
	Put(ctx context.Context, key, val string, opts ...OpOption) (*PutResponse, error)
	Delete(ctx context.Context, key string, opts ...OpOption) (*DeleteResponse, error)
	// Txn creates a transaction; Commit sends it, bounded by ctx.
	Txn(ctx context.Context) Txn
}

type Cmp struct{}

type TxnResponse struct {
	Succeeded bool
}

// Txn is a transaction built in steps: If(...).Then(...).Else(...).Commit().
type Txn interface {
	If(cs ...Cmp) Txn
	Then(ops ...Op) Txn
	Else(ops ...Op) Txn
	Commit() (*TxnResponse, error)
}

func Compare(cmp Cmp, result string, v any) Cmp { return cmp }

func CreateRevision(key string) Cmp { return Cmp{} }

func OpPut(key, val string, opts ...OpOption) Op { return Op{} }

func OpGet(key string, opts ...OpOption) Op { return Op{} }

func WithLease(id LeaseID) OpOption { return nil }

type Lease interface {
	TimeToLive(ctx context.Context, id LeaseID, opts ...LeaseOption) (*LeaseTimeToLiveResponse, error)
	KeepAlive(ctx context.Context, id LeaseID) (<-chan *LeaseKeepAliveResponse, error)
}

type LeaseOption func(*LeaseOp)

type LeaseOp struct{}

type WatchChan <-chan struct{}

type Watcher interface {
	Watch(ctx context.Context, key string, opts ...OpOption) WatchChan
}

type Config struct {
	Endpoints   []string
	DialTimeout time.Duration
	DialOptions []grpc.DialOption
}

// Client embeds the APIs, as etcd's does.
type Client struct {
	KV
	Lease
	Watcher
}

func New(cfg Config) (*Client, error) { return &Client{}, nil }

func WithPrefix() OpOption { return nil }
