"""The syntax layer's analysis: module facts (`facts`), the value flow (`flow`, with the
checks it is handed), the pre-filters (`units`) and the links across the modules of a run
(`modules`). `run.analyse` is its entry; `toolwire.lint.engine` calls it."""
