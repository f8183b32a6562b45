" CTL-PGN game records (C'escacs). A Vim script file, so that every Neovim version reads it.
autocmd BufRead,BufNewFile *.ctl-pgn setfiletype ctlpgn
