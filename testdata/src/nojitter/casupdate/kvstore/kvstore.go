// Package kvstore keeps a cluster's data in a key-value store, written with compare-and-swap.
package kvstore

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strconv"
	"time"
)

var (
	ErrKeyNotFound = errors.New("key not found")
	ErrKeyModified = errors.New("unable to complete atomic operation, key modified")
)

type Pair struct {
	Key       string
	Value     []byte
	LastIndex uint64
}

type ClusterData struct {
	Spec    map[string]string `json:"spec"`
	Version int               `json:"version"`
}

type Store struct {
	Endpoint string
	Client   *http.Client
}

func (s *Store) GetClusterData(ctx context.Context) (*ClusterData, *Pair, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.Endpoint+"/v1/kv/cluster", nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil, nil, ErrKeyNotFound
	}
	idx, _ := strconv.ParseUint(resp.Header.Get("X-Index"), 10, 64)
	var cd ClusterData
	if err := json.NewDecoder(resp.Body).Decode(&cd); err != nil {
		return nil, nil, err
	}
	return &cd, &Pair{Key: "cluster", LastIndex: idx}, nil
}

// AtomicPutClusterData writes cd if the key is still at prev's index.
func (s *Store) AtomicPutClusterData(ctx context.Context, cd *ClusterData, prev *Pair) (*Pair, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	body, err := json.Marshal(cd)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, s.Endpoint+"/v1/kv/cluster?cas="+strconv.FormatUint(prev.LastIndex, 10), bytesReader(body))
	if err != nil {
		return nil, err
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusConflict {
		return nil, ErrKeyModified
	}
	return &Pair{Key: "cluster", Value: body}, nil
}
