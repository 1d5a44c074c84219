// Package restyhandedapi holds the calls of a secrets API; each sends through the resty
// client its SDK made (package restyhanded), which retries them.
package restyhandedapi

import (
	"fmt"

	"github.com/go-resty/resty/v2"
)

type CreateSecretRequest struct {
	ProjectID string `json:"projectId"`
	Key       string `json:"secretKey"`
	Value     string `json:"secretValue"`
}

type Secret struct {
	ID      string `json:"id"`
	Key     string `json:"secretKey"`
	Version int    `json:"version"`
}

type SecretResponse struct {
	Secret Secret `json:"secret"`
}

// APIError is an answer the API refused.
type APIError struct {
	Op     string
	Status int
}

func (e *APIError) Error() string { return fmt.Sprintf("%s: status %d", e.Op, e.Status) }

func CallCreateSecret(httpClient *resty.Client, request CreateSecretRequest) (SecretResponse, error) { // want CallCreateSecret:`sends a POST request without an idempotency key`
	out := SecretResponse{}
	req := httpClient.R().
		SetResult(&out).
		SetBody(request)
	res, err := req.Post(fmt.Sprintf("/v3/secrets/raw/%s", request.Key))
	if err != nil {
		return SecretResponse{}, fmt.Errorf("CallCreateSecret: %w", err)
	}
	if res.IsError() {
		return SecretResponse{}, &APIError{Op: "CallCreateSecret", Status: res.StatusCode()}
	}
	return out, nil
}

func CallGetSecret(httpClient *resty.Client, projectID, key string) (SecretResponse, error) {
	out := SecretResponse{}
	res, err := httpClient.R().
		SetResult(&out).
		SetHeader("Accept", "application/json").
		Get("/v3/secrets/raw/" + key + "?projectId=" + projectID)
	if err != nil {
		return SecretResponse{}, fmt.Errorf("CallGetSecret: %w", err)
	}
	if res.IsError() {
		return SecretResponse{}, &APIError{Op: "CallGetSecret", Status: res.StatusCode()}
	}
	return out, nil
}

type UpdateSecretRequest struct {
	ProjectID string `json:"projectId"`
	Value     string `json:"secretValue"`
}

func CallUpdateSecret(httpClient *resty.Client, key string, request UpdateSecretRequest) (SecretResponse, error) { // want CallUpdateSecret:`sends a PATCH request without an idempotency key`
	out := SecretResponse{}
	res, err := httpClient.R().
		SetResult(&out).
		SetBody(request).
		Patch("/v3/secrets/raw/" + key)
	if err != nil {
		return SecretResponse{}, fmt.Errorf("CallUpdateSecret: %w", err)
	}
	if res.IsError() {
		return SecretResponse{}, &APIError{Op: "CallUpdateSecret", Status: res.StatusCode()}
	}
	return out, nil
}
