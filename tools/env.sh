# Sourced by the other scripts: the tools setup.sh installed, on PATH.
export PATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/node_modules/.bin:$HOME/.cargo/bin:$PATH"
