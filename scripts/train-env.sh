# Sourced by the measuring scripts that render or re-shoot photos: sets PY to the training venv's Python
# ($TRAIN_PYTHON, else .venv-train/bin/python), or stops the script saying how to create it. $1 names the script in
# the message.
PY=${TRAIN_PYTHON:-.venv-train/bin/python}
if [ ! -x "$PY" ]; then
  echo "$1: $PY is missing; create .venv-train (models/training/requirements.txt)" >&2
  exit 1
fi
