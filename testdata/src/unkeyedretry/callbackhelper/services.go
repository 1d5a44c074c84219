package callbackhelper

import "net/http"

type Network struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

type Device struct {
	Serial string `json:"serial"`
	Name   string `json:"name"`
}

func (c *Client) CreateNetwork(org string, n *Network) (*Network, error) {
	path := "/organizations/" + org + "/networks"
	return doWithRetries[Network](func() (*http.Response, error) {
		return POST(c, path, n)
	}, c.backoff)
}

func (c *Client) ClaimDevices(network string, serials []string) (*[]Device, error) {
	path := "/networks/" + network + "/devices/claim/bulk"
	return doWithRetries[[]Device](func() (*http.Response, error) {
		return POST(c, path, map[string][]string{"serials": serials})
	}, c.backoff)
}

func (c *Client) RenameDevice(serial, name string) (*Device, error) {
	path := "/devices/" + serial
	return doWithRetries[Device](func() (*http.Response, error) {
		return PATCH(c, path, map[string]string{"name": name})
	}, c.backoff)
}

func (c *Client) GetNetwork(id string) (*Network, error) {
	return doWithRetries[Network](func() (*http.Response, error) {
		return GET(c, "/networks/"+id)
	}, c.backoff)
}
