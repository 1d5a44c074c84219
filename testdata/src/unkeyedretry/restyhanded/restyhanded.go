// Package restyhanded is an SDK whose resty client retries every request three times, and
// hands that client to the calls of package restyhandedapi: the secret it creates with a POST
// may be created again when a retry follows a lost answer.
package restyhanded

import (
	"time"

	"github.com/go-resty/resty/v2"

	"unkeyedretry/restyhandedapi"
)

type Config struct {
	SiteURL   string
	UserAgent string
}

type Client struct {
	httpClient *resty.Client
	Secrets    *Secrets
}

type Secrets struct{ c *Client }

func New(cfg Config) *Client {
	c := &Client{}
	c.httpClient = resty.New().
		SetHeader("User-Agent", cfg.UserAgent).
		SetTimeout(30 * time.Second)
	c.httpClient.SetRetryCount(3) // related "restyhanded.go:38: a POST request sent here" related "restyhanded.go:54: a PATCH request sent here" // want `the client configured here retries a POST request and 1 other request without a key: a retry can repeat their effect`
	c.httpClient.SetRetryWaitTime(time.Second)
	c.Secrets = &Secrets{c: c}
	return c
}

func (s *Secrets) Create(projectID, key, value string) (restyhandedapi.Secret, error) {
	res, err := restyhandedapi.CallCreateSecret(s.c.httpClient, restyhandedapi.CreateSecretRequest{ProjectID: projectID, Key: key, Value: value})
	if err != nil {
		return restyhandedapi.Secret{}, err
	}
	return res.Secret, nil
}

func (s *Secrets) Get(projectID, key string) (restyhandedapi.Secret, error) {
	res, err := restyhandedapi.CallGetSecret(s.c.httpClient, projectID, key)
	if err != nil {
		return restyhandedapi.Secret{}, err
	}
	return res.Secret, nil
}

func (s *Secrets) Update(projectID, key, value string) (restyhandedapi.Secret, error) {
	res, err := restyhandedapi.CallUpdateSecret(s.c.httpClient, key, restyhandedapi.UpdateSecretRequest{ProjectID: projectID, Value: value})
	if err != nil {
		return restyhandedapi.Secret{}, err
	}
	return res.Secret, nil
}

// Once sends through a client that does not retry: one attempt per call, not reported.
type Once struct{ rc *resty.Client }

func NewOnce(base string) *Once {
	return &Once{rc: resty.New().SetBaseURL(base).SetTimeout(10 * time.Second)}
}

func (o *Once) Create(projectID, key, value string) (restyhandedapi.Secret, error) { // want Create:`sends a POST request without an idempotency key`
	res, err := restyhandedapi.CallCreateSecret(o.rc, restyhandedapi.CreateSecretRequest{ProjectID: projectID, Key: key, Value: value})
	if err != nil {
		return restyhandedapi.Secret{}, err
	}
	return res.Secret, nil
}

// Mirror sends through a client of its own made from the retrying client's http.Client: it
// shares the connections, not the retry count. Not reported.
type Mirror struct{ rc *resty.Client }

func NewMirror(c *Client) *Mirror {
	return &Mirror{rc: resty.NewWithClient(c.httpClient.GetClient()).SetTimeout(10 * time.Second)}
}

func (m *Mirror) Create(projectID, key, value string) (restyhandedapi.Secret, error) { // want Create:`sends a POST request without an idempotency key`
	res, err := restyhandedapi.CallCreateSecret(m.rc, restyhandedapi.CreateSecretRequest{ProjectID: projectID, Key: key, Value: value})
	if err != nil {
		return restyhandedapi.Secret{}, err
	}
	return res.Secret, nil
}

// Copy keeps the original client, which does not retry; only its clone does. Not reported.
type Copy struct {
	rc      *resty.Client
	patient *resty.Client
}

func NewCopy() *Copy {
	c := &Copy{rc: resty.New().SetTimeout(10 * time.Second)}
	c.patient = c.rc.Clone()
	c.rc.Clone().SetRetryCount(5)
	return c
}

func (c *Copy) Create(projectID, key, value string) (restyhandedapi.Secret, error) { // want Create:`sends a POST request without an idempotency key`
	res, err := restyhandedapi.CallCreateSecret(c.rc, restyhandedapi.CreateSecretRequest{ProjectID: projectID, Key: key, Value: value})
	if err != nil {
		return restyhandedapi.Secret{}, err
	}
	return res.Secret, nil
}
