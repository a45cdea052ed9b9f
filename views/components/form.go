package components

// Form is the state of a form: what was typed, each field's error, a problem that belongs to no
// single field (Message, e.g. a plan limit or a role the Service refused) and a confirmation
// (Saved) shown after an htmx save.
type Form struct {
	Values  map[string]string
	Errors  map[string]string
	Message string
	Saved   string
	Focus   string // the field that takes the focus: the first one with an error
}

// NewForm is a form holding values (nil: empty).
func NewForm(values map[string]string) Form {
	if values == nil {
		values = map[string]string{}
	}
	return Form{Values: values, Errors: map[string]string{}}
}

// Value is what was typed in name.
func (f Form) Value(name string) string { return f.Values[name] }

// Error is name's error, or "".
func (f Form) Error(name string) string { return f.Errors[name] }

// Checked reports whether the checkbox name is on.
func (f Form) Checked(name string) bool {
	v := f.Values[name]
	return v == "on" || v == "true"
}

// Invalid reports whether the form has an error.
func (f Form) Invalid() bool { return len(f.Errors) > 0 || f.Message != "" }

// Field fills p from the form: id (from the name, prefixed), value and error. The first field with
// an error takes the focus after a save.
func (f Form) Field(prefix string, p FieldProps) FieldProps {
	if p.ID == "" {
		p.ID = prefix + "-" + p.Name
	}
	p.Value = f.Value(p.Name)
	p.Error = f.Error(p.Name)
	return p
}
