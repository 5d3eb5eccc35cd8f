@echo off
rem `plugboard` in an installed Plugboard (Windows): the app's own Electron runs the bundled
rem command line as plain Node (ELECTRON_RUN_AS_NODE, allowed by the RunAsNode fuse).
rem This file is <install folder>\resources\cli\plugboard.cmd; add that folder to PATH.
setlocal
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\Plugboard.exe" "%~dp0..\app.asar.unpacked\out\main\plugboard.js" %*
exit /b %ERRORLEVEL%
