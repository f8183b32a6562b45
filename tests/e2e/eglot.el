;;; eglot.el --- Emacs's eglot as a real client of `ctlpgn lsp'  -*- lexical-binding: t -*-

;; Run by server/tests/emacs.rs: `emacs -Q --batch -l eglot.el' in a work folder that holds
;; config.el (the Emacs configuration of docs/editors/other-clients.md, as a user copies it),
;; errors.ctl-pgn and complete.ctl-pgn, with the server under test first on PATH. It does what
;; a user does: opens a record (the mode and eglot start by themselves), waits for flymake's
;; diagnostics, asks for the hover eldoc shows, completes with `completion-at-point' (C-M-i),
;; formats with `eglot-format-buffer', and writes what it saw to observed.json for the test
;; to judge. Every wait is for the thing awaited, bounded only as a failure guard.

(require 'package)
;; Debian's elpa-eglot installs into the system's package folder, which -Q leaves out.
(add-to-list 'package-directory-list "/usr/share/emacs/site-lisp/elpa")
(package-initialize)
(require 'eglot)
(require 'json)

(defvar ctlpgn-test-observed nil "What the user saw, by name.")

(defun ctlpgn-test-observe (name value)
  "Keeps VALUE as what was seen under NAME."
  (push (cons name value) ctlpgn-test-observed))

(defun ctlpgn-test-until (what condition)
  "Waits for CONDITION to give non-nil, serving the server's messages; fails after 60 s."
  (let ((deadline (+ (float-time) 60)) (value nil))
    (while (and (not (setq value (funcall condition))) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or value (error "Waited in vain for %s" what))))

(defun ctlpgn-test-open (file)
  "Visits FILE as a user does, and waits for eglot to manage it."
  (find-file (expand-file-name file default-directory))
  (ctlpgn-test-until
   (format "eglot to manage %s" file)
   (lambda ()
     ;; `eglot-ensure' connects from `post-command-hook', after the command that visited.
     (run-hooks 'post-command-hook)
     (eglot-current-server))))

(defun ctlpgn-test-line ()
  "The text of the line at point."
  (buffer-substring-no-properties (line-beginning-position) (line-end-position)))

(defun ctlpgn-test-complete (line typed)
  "Types TYPED on a new line before LINE and presses C-M-i at its end; the line after."
  (goto-char (point-min))
  (forward-line (1- line))
  (insert typed)
  (save-excursion (insert "\n"))
  (completion-at-point)
  (ctlpgn-test-line))

(condition-case failure
    (progn
      (load (expand-file-name "config.el" default-directory))
      (ctlpgn-test-open "errors.ctl-pgn")
      (ctlpgn-test-observe "mode" (symbol-name major-mode))

      ;; Diagnostics, as flymake lists them.
      (let ((diagnostics
             (ctlpgn-test-until
              "flymake's diagnostics"
              (lambda () (flymake-start) (flymake-diagnostics)))))
        (ctlpgn-test-observe
         "diagnostics"
         (vconcat
          (mapcar (lambda (diagnostic)
                    (let ((start (flymake-diagnostic-beg diagnostic)))
                      (list (cons "line" (line-number-at-pos start))
                            (cons "column" (save-excursion (goto-char start) (current-column)))
                            (cons "text" (flymake-diagnostic-text diagnostic)))))
                  (sort diagnostics
                        (lambda (a b) (< (flymake-diagnostic-beg a)
                                         (flymake-diagnostic-beg b))))))))

      ;; The hover on White's second half-move, as eldoc shows it.
      (goto-char (point-min))
      (search-forward "2. F8")
      (let ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                                    (eglot--TextDocumentPositionParams))))
        (ctlpgn-test-observe "hover_kind" (plist-get (plist-get hover :contents) :kind))
        (ctlpgn-test-observe
         "hover" (substring-no-properties
                  (eglot--hover-info (plist-get hover :contents) (plist-get hover :range)))))

      ;; Formatting the buffer: what `eglot-format-buffer' leaves.
      (eglot-format-buffer)
      (ctlpgn-test-observe "formatted" (buffer-substring-no-properties (point-min) (point-max)))

      ;; Completion, in a record of one move pair.
      (ctlpgn-test-open "complete.ctl-pgn")
      (ctlpgn-test-observe "tag" (ctlpgn-test-complete 2 "[Ev"))
      (let ((moves (progn (goto-char (point-min)) (search-forward "1. ") (line-number-at-pos))))
        ;; A prefix only one legal half-move has: completed whole.
        (ctlpgn-test-observe "unique" (ctlpgn-test-complete (1+ moves) "2. JF6-G"))
        ;; A prefix several have: the line keeps what was typed (nothing doubled) and the
        ;; *Completions* window lists them.
        (kill-whole-line)
        (ctlpgn-test-observe "several" (ctlpgn-test-complete (1+ moves) "2. JF6-"))
        (ctlpgn-test-observe
         "listed" (with-current-buffer "*Completions*"
                    (buffer-substring-no-properties (point-min) (point-max)))))
      (ctlpgn-test-observe "error" ""))
  (error (ctlpgn-test-observe "error" (error-message-string failure))))

(let ((json-encoding-pretty-print t))
  (with-temp-file (expand-file-name "observed.json" default-directory)
    (insert (json-encode ctlpgn-test-observed))))
(kill-emacs 0)
