package web

import (
	"fmt"
	"sort"
	"strings"
	"time"
	_ "time/tzdata" // the zones below resolve on machines without a system zoneinfo

	"github.com/crier/crier/views/pages/account"
)

// timezoneNames is the curated list of IANA zones the profile offers: one per distinct region and
// offset people commonly pick, grouped by continent. The Service validates whatever is sent.
var timezoneNames = []string{
	"UTC",
	// Africa
	"Africa/Abidjan", "Africa/Accra", "Africa/Algiers", "Africa/Cairo", "Africa/Casablanca", "Africa/Johannesburg",
	"Africa/Lagos", "Africa/Nairobi", "Africa/Tunis",
	// America
	"America/Anchorage", "America/Argentina/Buenos_Aires", "America/Bogota", "America/Caracas", "America/Chicago",
	"America/Denver", "America/Edmonton", "America/Halifax", "America/Havana", "America/Lima", "America/Los_Angeles",
	"America/Mexico_City", "America/Montevideo", "America/New_York", "America/Panama", "America/Phoenix",
	"America/Puerto_Rico", "America/Santiago", "America/Sao_Paulo", "America/St_Johns", "America/Toronto",
	"America/Vancouver", "America/Winnipeg", "Pacific/Honolulu",
	// Asia
	"Asia/Almaty", "Asia/Baghdad", "Asia/Bangkok", "Asia/Dhaka", "Asia/Dubai", "Asia/Ho_Chi_Minh", "Asia/Hong_Kong",
	"Asia/Jakarta", "Asia/Jerusalem", "Asia/Karachi", "Asia/Kathmandu", "Asia/Kolkata", "Asia/Kuala_Lumpur",
	"Asia/Manila", "Asia/Riyadh", "Asia/Seoul", "Asia/Shanghai", "Asia/Singapore", "Asia/Taipei", "Asia/Tashkent",
	"Asia/Tehran", "Asia/Tokyo", "Asia/Yangon",
	// Atlantic
	"Atlantic/Azores", "Atlantic/Canary", "Atlantic/Reykjavik",
	// Australia and Pacific
	"Australia/Adelaide", "Australia/Brisbane", "Australia/Darwin", "Australia/Melbourne", "Australia/Perth",
	"Australia/Sydney", "Pacific/Auckland", "Pacific/Fiji", "Pacific/Guam",
	// Europe
	"Europe/Amsterdam", "Europe/Athens", "Europe/Belgrade", "Europe/Berlin", "Europe/Brussels", "Europe/Bucharest",
	"Europe/Budapest", "Europe/Copenhagen", "Europe/Dublin", "Europe/Helsinki", "Europe/Istanbul", "Europe/Kyiv",
	"Europe/Lisbon", "Europe/London", "Europe/Madrid", "Europe/Moscow", "Europe/Oslo", "Europe/Paris",
	"Europe/Prague", "Europe/Rome", "Europe/Stockholm", "Europe/Vienna", "Europe/Warsaw", "Europe/Zurich",
}

// timezoneRegions maps a zone's first segment to its group's label, in display order.
var timezoneRegions = []struct{ prefix, label string }{
	{"UTC", "Universal"},
	{"Africa", "Africa"},
	{"America", "Americas"},
	{"Asia", "Asia"},
	{"Atlantic", "Atlantic"},
	{"Australia", "Australia and Pacific"},
	{"Europe", "Europe"},
}

// timezoneGroups is the profile's time zone select at now, with current (the user's zone) added
// under "Other" when the curated list lacks it.
func timezoneGroups(now time.Time, current string) []account.TimezoneGroup {
	groups := make([]account.TimezoneGroup, len(timezoneRegions))
	index := map[string]int{}
	for i, r := range timezoneRegions {
		groups[i].Label = r.label
		index[r.prefix] = i
	}
	index["Pacific"] = index["Australia"]
	names := timezoneNames
	known := false
	for _, n := range names {
		known = known || n == current
	}
	var other []account.Timezone
	if current != "" && !known {
		if z, ok := timezoneOption(now, current); ok {
			other = append(other, z)
		}
	}
	for _, n := range names {
		z, ok := timezoneOption(now, n)
		if !ok {
			continue
		}
		prefix, _, _ := strings.Cut(n, "/")
		i := index[prefix]
		groups[i].Zones = append(groups[i].Zones, z)
	}
	for i := range groups {
		sort.SliceStable(groups[i].Zones, func(a, b int) bool { return groups[i].Zones[a].Label < groups[i].Zones[b].Label })
	}
	if len(other) > 0 {
		groups = append(groups, account.TimezoneGroup{Label: "Other", Zones: other})
	}
	return groups
}

// timezoneOption labels a zone with its city and current offset: "Paris (UTC+01:00)".
func timezoneOption(now time.Time, name string) (account.Timezone, bool) {
	loc, err := time.LoadLocation(name)
	if err != nil {
		return account.Timezone{}, false
	}
	_, offset := now.In(loc).Zone()
	sign := "+"
	if offset < 0 {
		sign, offset = "-", -offset
	}
	city := name
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		city = name[i+1:]
	}
	city = strings.ReplaceAll(city, "_", " ")
	if name == "UTC" {
		return account.Timezone{Name: name, Label: "Coordinated Universal Time (UTC)"}, true
	}
	return account.Timezone{Name: name, Label: fmt.Sprintf("%s (UTC%s%02d:%02d)", city, sign, offset/3600, offset%3600/60)}, true
}
