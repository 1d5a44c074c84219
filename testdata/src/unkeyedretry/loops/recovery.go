package loops

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
)

// A vault client that writes a secret with a POST and sends it again only after the server
// answered with a cause the client cures first (an expired token: log in again, once; a
// version limit: delete the old versions). A POST the server turned away had no effect, so
// sending it again repeats nothing. Going round on the dependency's failures, with the token
// refreshed each time, is a retry of the POST.

type vaultError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e *vaultError) Error() string { return fmt.Sprintf("vault: %d %s", e.Code, e.Message) }

func expiredToken(err error) bool {
	var ve *vaultError
	return errors.As(err, &ve) && ve.Code == 16
}

func versionLimit(err error) bool {
	var ve *vaultError
	if errors.As(err, &ve) && ve.Code == 8 {
		return true
	}
	return false
}

func connFailure(err error) bool {
	var op *net.OpError
	return errors.As(err, &op)
}

type vault struct {
	hc    *http.Client
	base  string
	token string
}

func (v *vault) login() error {
	resp, err := v.hc.Get(v.base + "/v1/auth/token")
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	var out struct {
		Token string `json:"token"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return err
	}
	v.token = out.Token
	return nil
}

func (v *vault) post(name, value string) error {
	body, err := json.Marshal(map[string]string{"name": name, "value": value})
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, v.base+"/v1/secrets", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+v.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := v.hc.Do(req)
	if err != nil {
		return fmt.Errorf("post secret: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		var ve vaultError
		if err := json.Unmarshal(b, &ve); err != nil {
			return fmt.Errorf("status %d", resp.StatusCode)
		}
		return &ve
	}
	return nil
}

func (v *vault) purge(name string) error {
	req, err := http.NewRequest(http.MethodDelete, v.base+"/v1/secrets/"+name, http.NoBody)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+v.token)
	resp, err := v.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (v *vault) Store(name, value string) error { // want Store:"sends POST /v1/secrets without an idempotency key"
	relogged := false
	for {
		err := v.post(name, value)
		if err == nil {
			return nil
		}
		if expiredToken(err) && !relogged {
			if err := v.login(); err != nil {
				return err
			}
			relogged = true
			continue
		}
		if versionLimit(err) {
			log.Printf("vault: %s at its version limit", name)
			if err := v.purge(name); err != nil {
				return err
			}
			continue
		}
		return err
	}
}

func (v *vault) StoreHard(name, value string) error {
	for {
		err := v.post(name, value) // related "recovery.go:136: retry loop" "recovery.go:78: sent here by post" // want `POST /v1/secrets is retried with no idempotency key; post must send one made before the retries`
		if err == nil {
			return nil
		}
		if connFailure(err) {
			if err := v.login(); err != nil {
				return err
			}
			continue
		}
		return err
	}
}
