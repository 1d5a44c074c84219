// Package usebackoffer retries region lookups through the library's Backoffer, whose waits are
// made by a function value from its configuration: the loop waits, with jitter, between
// attempts.
package usebackoffer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"nojitter/backoffer"
)

type Region struct {
	ID     uint64 `json:"id"`
	Leader string `json:"leader"`
}

type Cache struct {
	hc      *http.Client
	pdAddrs []string
}

func (c *Cache) LoadRegion(ctx context.Context, key string) (*Region, error) {
	bo := backoffer.NewBackoffer(ctx, 20000)
	for attempt := 0; ; attempt++ {
		addr := c.pdAddrs[attempt%len(c.pdAddrs)]
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, addr+"/regions/"+key, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode == http.StatusOK {
			var r Region
			err = json.NewDecoder(resp.Body).Decode(&r)
			resp.Body.Close()
			if err != nil {
				return nil, fmt.Errorf("decode region: %w", err)
			}
			return &r, nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("pd answered %d", resp.StatusCode)
		}
		if berr := bo.Backoff(backoffer.BoRPC, err); berr != nil {
			return nil, fmt.Errorf("load region %s: %w (last: %v)", key, berr, err)
		}
	}
}
