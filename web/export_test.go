package web

// AreaInfo is what the external tests need of an area (nav.go).
type AreaInfo struct {
	ID, Label, Path string
	Built           bool
}

// Areas lists the dashboard areas, built or not.
func Areas() []AreaInfo {
	out := make([]AreaInfo, 0, len(areas))
	for _, a := range areas {
		out = append(out, AreaInfo{ID: a.ID, Label: a.Label, Path: a.Path, Built: a.Built})
	}
	return out
}
