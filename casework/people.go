package casework

import bolt "go.etcd.io/bbolt"

// User returns the user name as the store holds it now; ErrNotFound
// when there is none. Sign-in sessions read it on every request, so that
// a user disabled or given another role since loses her sessions.
func (c *Casework) User(name string) (*UserInfo, error) {
	var u *UserInfo
	err := c.db.View(func(tx *bolt.Tx) error {
		var err error
		u, err = userIn(tx, name)
		return err
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}
