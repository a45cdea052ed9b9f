package app

// UnmarshalPostDataByTokens is PostData's decoding by json.Decoder's tokens, for netspec_test.go.
func UnmarshalPostDataByTokens(d *PostData, b []byte) error { return d.unmarshalTokens(b) }
