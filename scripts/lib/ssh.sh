# Sourced by the scripts that start an sshd of their own and log in to it (netfs-rig,
# fleet/ssh-hosts): the settings both servers and both clients share, so that a rig's
# server and a fleet host's refuse and allow the same logins.

# ssh_client_config HOST USER DIR: ssh's configuration (ssh -F) for HOST (a name or a
# pattern) on standard output: USER logs in with DIR/id_ed25519 alone, the server's key
# is checked against DIR/known_hosts alone (the machine's /root/.ssh and /etc/ssh are not
# read), ssh never asks (BatchMode), and a server gone quiet is given up on within seconds.
ssh_client_config() {
  cat <<EOF
Host $1
  User $2
  IdentityFile $3/id_ed25519
  IdentitiesOnly yes
  UserKnownHostsFile $3/known_hosts
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 5
  ServerAliveInterval 2
  ServerAliveCountMax 3
EOF
}

# sshd_key_only_config HOST_KEY SFTP: the lines of sshd_config both servers start with, on
# standard output: every address, the host key HOST_KEY, a login by key and nothing else
# (no password, no keyboard-interactive, no PAM), and SFTP served by SFTP (internal-sftp,
# with its options). Each script adds its own lines after them.
sshd_key_only_config() {
  cat <<EOF
ListenAddress 0.0.0.0
HostKey $1
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
Subsystem sftp $2
EOF
}
