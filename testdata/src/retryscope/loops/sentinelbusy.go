package loops

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// A lease taken from a coordinator that answers errBusy while another holder has it: the loop
// asks again at once on that one error, and on any other error gives up. A test of the error
// against a sentinel with ==, with no wait after it: going round on one sentinel without a
// wait is not read as a retry (see decisions), and the model must not fail on it (the
// errors.As test of that branch was once asked of a comparison).

var errBusy = errors.New("lease busy")

func takeLease(ctx context.Context, hc *http.Client, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return nil
	case http.StatusConflict:
		return errBusy
	}
	return fmt.Errorf("lease: %s", resp.Status)
}

func acquire(ctx context.Context, hc *http.Client, url string) error {
	for i := 0; i < 3; i++ {
		err := takeLease(ctx, hc, url)
		if err == errBusy {
			continue
		}
		return err
	}
	return errBusy
}
