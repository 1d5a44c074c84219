// Package google is a stand-in for golang.org/x/oauth2/google: Application Default
// Credentials, found in a file named by the environment, whose token source keeps the
// context it is made with for the token requests it makes later.
package google

import (
	"context"
	"encoding/json"
	"errors"
	"os"

	"golang.org/x/oauth2"
)

// Credentials holds the token source of the credentials found.
type Credentials struct {
	ProjectID   string
	TokenSource oauth2.TokenSource
	JSON        []byte
}

type credentialsFile struct {
	Type         string `json:"type"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	RefreshToken string `json:"refresh_token"`
	TokenURI     string `json:"token_uri"`
	ProjectID    string `json:"project_id"`
}

func (f *credentialsFile) tokenSource(ctx context.Context, scopes []string) (oauth2.TokenSource, error) {
	switch f.Type {
	case "authorized_user":
		cfg := &oauth2.Config{ClientID: f.ClientID, ClientSecret: f.ClientSecret, Scopes: scopes,
			Endpoint: oauth2.Endpoint{TokenURL: f.TokenURI}}
		return cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: f.RefreshToken}), nil
	case "":
		return nil, errors.New("google: missing credential type")
	}
	return nil, errors.New("google: unknown credential type " + f.Type)
}

// CredentialsFromJSON parses a credentials file.
func CredentialsFromJSON(ctx context.Context, jsonData []byte, scopes ...string) (*Credentials, error) {
	var f credentialsFile
	if err := json.Unmarshal(jsonData, &f); err != nil {
		return nil, err
	}
	ts, err := f.tokenSource(ctx, scopes)
	if err != nil {
		return nil, err
	}
	return &Credentials{ProjectID: f.ProjectID, TokenSource: ts, JSON: jsonData}, nil
}

// FindDefaultCredentials reads the file GOOGLE_APPLICATION_CREDENTIALS names.
func FindDefaultCredentials(ctx context.Context, scopes ...string) (*Credentials, error) {
	b, err := os.ReadFile(os.Getenv("GOOGLE_APPLICATION_CREDENTIALS"))
	if err != nil {
		return nil, err
	}
	return CredentialsFromJSON(ctx, b, scopes...)
}

// DefaultTokenSource returns the token source of the default credentials.
func DefaultTokenSource(ctx context.Context, scopes ...string) (oauth2.TokenSource, error) {
	creds, err := FindDefaultCredentials(ctx, scopes...)
	if err != nil {
		return nil, err
	}
	return creds.TokenSource, nil
}
