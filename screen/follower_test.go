package screen

// Close releases the index, if one was opened.
func (f *Follower) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.d != nil {
		f.d.Close()
		f.d = nil
	}
}
