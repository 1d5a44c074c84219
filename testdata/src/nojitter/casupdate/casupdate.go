// Package casupdate is a CLI's update command: it reads the cluster data, changes it and writes
// it back with compare-and-swap, going round when another writer changed it in between.
package casupdate

import (
	"context"
	"fmt"
	"os"
	"time"

	"nojitter/casupdate/kvstore"
)

const maxRetries = 3

func die(format string, a ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", a...)
	os.Exit(1)
}

// ---- Not reported: read-modify-write that goes round only on a lost compare-and-swap ----

func SetRole(ctx context.Context, st *kvstore.Store, role string) {
	retry := 0
	for retry < maxRetries {
		cd, pair, err := st.GetClusterData(ctx)
		if err != nil {
			die("cannot get cluster data: %v", err)
		}
		if cd.Spec == nil {
			die("no cluster spec available")
		}
		if cd.Spec["role"] == role {
			fmt.Println("role already set")
			return
		}
		cd.Spec["role"] = role
		cd.Version++

		// Another writer may have changed the data since we read it.
		_, err = st.AtomicPutClusterData(ctx, cd, pair)
		if err != nil {
			if err == kvstore.ErrKeyModified {
				retry++
				continue
			}
			die("cannot update cluster data: %v", err)
		}
		break
	}
	if retry == maxRetries {
		die("failed to update cluster data after %d retries", maxRetries)
	}
}

func Patch(ctx context.Context, st *kvstore.Store, patch map[string]string) error {
	for attempt := 0; attempt < maxRetries; attempt++ {
		cd, pair, err := st.GetClusterData(ctx)
		if err != nil {
			return fmt.Errorf("get cluster data: %w", err)
		}
		for k, v := range patch {
			cd.Spec[k] = v
		}
		if _, err := st.AtomicPutClusterData(ctx, cd, pair); err != nil {
			if err == kvstore.ErrKeyModified {
				continue
			}
			return fmt.Errorf("put cluster data: %w", err)
		}
		return nil
	}
	return fmt.Errorf("cluster data kept changing under %d updates", maxRetries)
}

// ---- Reported: every failure of the write goes round at once ----

func PatchAnyFailure(ctx context.Context, st *kvstore.Store, patch map[string]string) error {
	var lastErr error
	for attempt := 0; attempt < maxRetries; attempt++ { // related "casupdate.go:80: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		cd, pair, err := st.GetClusterData(ctx)
		if err != nil {
			return fmt.Errorf("get cluster data: %w", err)
		}
		for k, v := range patch {
			cd.Spec[k] = v
		}
		if _, lastErr = st.AtomicPutClusterData(ctx, cd, pair); lastErr != nil {
			continue
		}
		return nil
	}
	return lastErr
}

// The write does not depend on the read: the loop sends the same update again on a
// conflict, with no wait.
func ForceRole(ctx context.Context, st *kvstore.Store, cd *kvstore.ClusterData, pair *kvstore.Pair) error {
	for attempt := 0; attempt < maxRetries; attempt++ { // related "casupdate.go:99: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		if _, _, err := st.GetClusterData(ctx); err != nil {
			return err
		}
		if _, err := st.AtomicPutClusterData(ctx, cd, pair); err != nil {
			if err == kvstore.ErrKeyModified {
				continue
			}
			return err
		}
		return nil
	}
	return fmt.Errorf("gave up after %d attempts at %s", maxRetries, time.Now())
}
