// Package ifaces finds this machine's network interfaces. DiscoverFunc is a hook its tests
// set; the package leaves it nil.
package ifaces

import (
	"errors"
	"fmt"
	"net"
)

// Interface is a network interface with an address in a cluster network.
type Interface struct {
	Name string
	IP   net.IP
}

// DiscoverFunc, when set (by tests), replaces the discovery.
var DiscoverFunc func(cidrs []string) (*Interface, error)

// Discover returns the interface with an address in one of cidrs.
func Discover(cidrs []string) (*Interface, error) {
	if DiscoverFunc != nil {
		return DiscoverFunc(cidrs)
	}
	return discover(cidrs)
}

func discover(cidrs []string) (*Interface, error) {
	for _, cidr := range cidrs {
		_, network, err := net.ParseCIDR(cidr)
		if err != nil {
			return nil, fmt.Errorf("parse %q: %w", cidr, err)
		}
		all, err := net.Interfaces()
		if err != nil {
			return nil, err
		}
		for _, iface := range all {
			addrs, err := iface.Addrs()
			if err != nil {
				return nil, err
			}
			for _, a := range addrs {
				if ip, _, err := net.ParseCIDR(a.String()); err == nil && network.Contains(ip) {
					return &Interface{Name: iface.Name, IP: ip}, nil
				}
			}
		}
	}
	return nil, errors.New("no interface in the cluster networks")
}
