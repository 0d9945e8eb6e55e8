// pcv serve: the page. The server draws every frame; this page shows them and sends the input
// back over one WebSocket (docs/serve.md has the protocol). No dependencies, no build step.
'use strict';

(() => {
  // ---- Protocol constants (docs/serve.md, "A frame") ----------------------------------------
  const FRAME_MAGIC = 0x46564350;  // "PCVF" read as a little-endian u32
  const FRAME_HEADER_BYTES = 16;
  const FRAME_FORMATS = { 1: 'image/jpeg', 2: 'image/png' };
  const FRAME_FLAG_FINAL = 1;
  const VIEW_SIZE_MIN = 16, VIEW_SIZE_MAX = 4096;  // the server's bounds for `size`
  const PER_CLIENT_SETTINGS = ['pointSize', 'edl', 'hq', 'classes', 'lossless'];

  // ---- Tuning ---------------------------------------------------------------------------------
  const RESIZE_DEBOUNCE_MS = 150;
  const HASH_UPDATE_INTERVAL_MS = 300;  // history.replaceState is rate-limited by browsers
  const CLICK_SLOP_PX = 4;              // a press that moves less than this is a click
  const WHEEL_NOTCH_PX = 100;           // one notch scrolls 100 pixels in Chromium and Firefox
  const WHEEL_MAX_NOTCHES = 5;          // per event: a flung trackpad must not fly off
  const PINCH_NOTCH_RATIO = 1.15;       // two fingers spreading by this factor make one notch
  const DOUBLE_TAP_MS = 300, DOUBLE_TAP_PX = 24;
  const RECONNECT_FIRST_MS = 500, RECONNECT_MAX_MS = 10000;
  const ERROR_SHOWN_MS = 5000, ERRORS_SHOWN_MAX = 3;

  const FLY_KEYS = {
    KeyW: 'forward', KeyS: 'back', KeyA: 'left', KeyD: 'right', KeyE: 'up', KeyQ: 'down',
    ShiftLeft: 'fast', ShiftRight: 'fast',
  };
  const MOUSE_BUTTONS = { 0: 'left', 1: 'middle', 2: 'right' };

  const $ = (id) => document.getElementById(id);
  const canvas = $('view');
  const stage = $('stage');
  const context = canvas.getContext('2d', { alpha: false });

  // Everything the page knows, in one place; exposed as window.pcv so that tests (and anyone
  // curious, from the console) read the state instead of scraping the text on screen.
  const state = {
    socket: null,
    connected: false,       // true from hello until the socket closes
    hello: null,            // the server's hello
    settings: {},           // this client's settings as last sent or told
    changedSettings: {},    // per-client settings the user changed: sent again after a reconnect
    statuses: new Map(),    // frame number -> its status, until that frame is shown
    viewSize: null,         // the size last asked of the server: width, height (device pixels)
    shown: null,            // the frame on the canvas: frame, width, height, format, final, status
    framesShown: 0,
    mode: 'orbit',
    tool: 'none',           // what a click does: none | pick | measure
    picks: new Map(),       // pick id -> the tool that asked
    nextPickId: 1,
    lastPick: null,         // the latest pick answer
    measure: [],            // world positions of the measurement's points (0, 1 or 2)
    distance: null,         // the measured distance in world units, once two points are picked
    errors: [],             // messages of the server's `error`s and of the page's own failures
    reconnectAttempts: 0,
  };
  window.pcv = state;

  // ---- Connection -----------------------------------------------------------------------------

  function socketUrl() {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    // The cookie the page's answer set carries the token; the query is for a browser that
    // refuses cookies, or a page opened before the cookie existed.
    const token = new URLSearchParams(location.search).get('token');
    return `${scheme}//${location.host}/ws` + (token ? `?token=${encodeURIComponent(token)}` : '');
  }

  function connect() {
    if (!location.host) {
      showNotice('Open this page from pcv serve: it shows what the server draws.');
      return;
    }
    let socket;
    try {
      socket = new WebSocket(socketUrl());
    } catch (error) {
      showNotice(`Cannot connect: ${error.message}`);
      return;
    }
    socket.binaryType = 'arraybuffer';
    state.socket = socket;
    socket.onopen = () => sendSize(true);
    socket.onmessage = (event) => {
      if (typeof event.data === 'string') receiveText(event.data);
      else receiveFrame(event.data, socket);
    };
    socket.onclose = (event) => {
      if (state.socket !== socket) return;
      state.socket = null;
      state.connected = false;
      state.statuses.clear();
      releaseKeys();
      scheduleReconnect(event.reason);
    };
  }

  // Backoff doubles from half a second to ten, so a restarted server is found quickly and a
  // gone one is not hammered.
  function scheduleReconnect(reason) {
    const delayMs = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** state.reconnectAttempts);
    state.reconnectAttempts += 1;
    const retryAt = performance.now() + delayMs;
    const tick = () => {
      const seconds = Math.ceil((retryAt - performance.now()) / 1000);
      if (seconds <= 0) {
        showNotice('Connecting…');
        connect();
        return;
      }
      showNotice(`The connection to the server is closed${reason ? ` (${reason})` : ''}.\n` +
                 `Retrying in ${seconds} s…`);
      setTimeout(tick, Math.min(1000, retryAt - performance.now()));
    };
    tick();
  }

  function send(message) {
    const socket = state.socket;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function receiveText(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      showError('The server sent a message the page cannot read.');
      return;
    }
    switch (message.type) {
      case 'hello': receiveHello(message); break;
      case 'status': state.statuses.set(message.frame, message); break;
      case 'pick': receivePick(message); break;
      case 'error': showError(message.message || 'The server rejected a message.'); break;
      default: break;  // newer servers may say more; this page ignores what it does not know
    }
  }

  function receiveHello(hello) {
    state.hello = hello;
    state.connected = true;
    state.reconnectAttempts = 0;
    state.settings = { ...hello.settings };
    buildPanel(hello);
    showMode(hello.settings?.camera);
    // After a reconnect the server starts this client afresh: give it back what the user had.
    if (Object.keys(state.changedSettings).length > 0) {
      sendSettings(state.changedSettings);
    }
    const view = parseViewHash(location.hash);
    if (view) requestView(view);
  }

  // ---- Frames ---------------------------------------------------------------------------------

  function parseFrame(buffer) {
    if (buffer.byteLength < FRAME_HEADER_BYTES) return null;
    const header = new DataView(buffer, 0, FRAME_HEADER_BYTES);
    if (header.getUint32(0, true) !== FRAME_MAGIC) return null;
    const format = header.getUint8(12);
    if (!(format in FRAME_FORMATS)) return null;
    return {
      frame: header.getUint32(4, true),
      width: header.getUint16(8, true),
      height: header.getUint16(10, true),
      format: format === 2 ? 'png' : 'jpeg',
      type: FRAME_FORMATS[format],
      final: (header.getUint8(13) & FRAME_FLAG_FINAL) !== 0,
      image: new Uint8Array(buffer, FRAME_HEADER_BYTES),
    };
  }

  // Frames decode asynchronously; chaining them keeps them on the canvas in the order they came.
  let drawing = Promise.resolve();

  function receiveFrame(buffer, socket) {
    const frame = parseFrame(buffer);
    if (!frame) {
      showError('The server sent a frame the page cannot read.');
      return;
    }
    frame.status = takeStatus(frame.frame);
    drawing = drawing
      .then(() => createImageBitmap(new Blob([frame.image], { type: frame.type }), {
        // Exact pixels: a lossless frame must read back as the server drew it.
        colorSpaceConversion: 'none', premultiplyAlpha: 'none',
      }))
      .then((bitmap) => {
        showFrame(bitmap, frame);
        bitmap.close();
      })
      .catch((error) => showError(`A frame could not be shown: ${error.message}`))
      .finally(() => {
        // The server sends at most two frames ahead of the acks, so acking even a frame that
        // failed keeps the view alive.
        if (state.socket === socket) send({ type: 'ack', frame: frame.frame });
      });
  }

  function takeStatus(frameNumber) {
    const status = state.statuses.get(frameNumber) || null;
    for (const key of state.statuses.keys()) {
      if (key <= frameNumber) state.statuses.delete(key);
    }
    return status;
  }

  function showFrame(bitmap, frame) {
    if (canvas.width !== frame.width || canvas.height !== frame.height) {
      canvas.width = frame.width;
      canvas.height = frame.height;
    }
    // One image pixel per device pixel, whatever the window's size is while a resize settles.
    const ratio = window.devicePixelRatio || 1;
    canvas.style.width = `${frame.width / ratio}px`;
    canvas.style.height = `${frame.height / ratio}px`;
    context.drawImage(bitmap, 0, 0);
    delete frame.image;
    state.shown = frame;
    state.framesShown += 1;
    countFrameRate();
    hideNotice();
    if (frame.status) receiveStatus(frame.status);
    showStatus();
  }

  // ---- The view's size ------------------------------------------------------------------------

  let sentSize = '';
  let resizeTimer = 0;

  function viewSize() {
    const ratio = window.devicePixelRatio || 1;
    const clampSize = (v) => Math.max(VIEW_SIZE_MIN, Math.min(VIEW_SIZE_MAX, Math.round(v)));
    return {
      width: clampSize(stage.clientWidth * ratio),
      height: clampSize(stage.clientHeight * ratio),
    };
  }

  function sendSize(force) {
    const size = viewSize();
    const key = `${size.width}x${size.height}`;
    if (!force && key === sentSize) return;
    sentSize = key;
    state.viewSize = size;
    send({ type: 'size', ...size });
  }

  new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => sendSize(false), RESIZE_DEBOUNCE_MS);
  }).observe(stage);

  // Pointer positions in the view's device pixels (the frame's pixels, as the server counts them).
  function viewPoint(event) {
    const rect = canvas.getBoundingClientRect();
    const scaleX = rect.width > 0 ? canvas.width / rect.width : 1;
    const scaleY = rect.height > 0 ? canvas.height / rect.height : 1;
    const clampTo = (v, size) => Math.max(0, Math.min(size - 1, Math.round(v)));
    return {
      x: clampTo((event.clientX - rect.left) * scaleX, canvas.width),
      y: clampTo((event.clientY - rect.top) * scaleY, canvas.height),
    };
  }

  // ---- Input: one drag and one wheel message per animation frame at most ------------------------

  const pending = { drag: null, notches: 0 };
  let flushQueued = false;
  // Drags are sent in whole pixels; the fractions (touch on a high-density screen) carry over.
  const dragRemainder = { dx: 0, dy: 0 };

  function queueDrag(dxCss, dyCss, button) {
    requestedView = null;  // the user moves on from the bookmark: frames show where they go
    if (pending.drag && pending.drag.button !== button) flushInput();
    const ratio = window.devicePixelRatio || 1;
    pending.drag = pending.drag || { dx: 0, dy: 0, button };
    pending.drag.dx += dxCss * ratio;
    pending.drag.dy += dyCss * ratio;
    queueFlush();
  }

  function queueNotches(notches) {
    requestedView = null;
    pending.notches += notches;
    queueFlush();
  }

  function queueFlush() {
    if (flushQueued) return;
    flushQueued = true;
    requestAnimationFrame(flushInput);
  }

  function flushInput() {
    flushQueued = false;
    if (pending.drag) {
      const dx = pending.drag.dx + dragRemainder.dx, dy = pending.drag.dy + dragRemainder.dy;
      const whole = { dx: Math.round(dx), dy: Math.round(dy) };
      dragRemainder.dx = dx - whole.dx;
      dragRemainder.dy = dy - whole.dy;
      if (whole.dx !== 0 || whole.dy !== 0) {
        send({ type: 'drag', ...whole, button: pending.drag.button });
      }
      pending.drag = null;
    }
    if (pending.notches !== 0) {
      send({ type: 'wheel', notches: Math.round(pending.notches * 1000) / 1000 });
      pending.notches = 0;
    }
  }

  // Mouse and pen: one button drags; the pointer is captured so a drag that leaves the window
  // still ends. Touch: see below.
  let mouseDrag = null;  // { id, button, lastX, lastY, startX, startY }

  canvas.addEventListener('pointerdown', (event) => {
    canvas.focus({ preventScroll: true });
    if (event.pointerType === 'touch') {
      touchDown(event);
      return;
    }
    const button = MOUSE_BUTTONS[event.button];
    if (!button || mouseDrag) return;
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    mouseDrag = {
      id: event.pointerId, button,
      lastX: event.clientX, lastY: event.clientY, startX: event.clientX, startY: event.clientY,
    };
  });

  canvas.addEventListener('pointermove', (event) => {
    if (event.pointerType === 'touch') {
      touchMove(event);
      return;
    }
    if (!mouseDrag || event.pointerId !== mouseDrag.id) return;
    queueDrag(event.clientX - mouseDrag.lastX, event.clientY - mouseDrag.lastY, mouseDrag.button);
    mouseDrag.lastX = event.clientX;
    mouseDrag.lastY = event.clientY;
  });

  const endPointer = (event) => {
    if (event.pointerType === 'touch') {
      touchUp(event);
      return;
    }
    if (!mouseDrag || event.pointerId !== mouseDrag.id) return;
    const moved = Math.hypot(event.clientX - mouseDrag.startX, event.clientY - mouseDrag.startY);
    const wasClick =
        event.type === 'pointerup' && mouseDrag.button === 'left' && moved < CLICK_SLOP_PX;
    mouseDrag = null;
    flushInput();
    if (wasClick) click(event);
  };
  canvas.addEventListener('pointerup', endPointer);
  canvas.addEventListener('pointercancel', endPointer);
  // The browser may take the capture away (an alert, a lost window): the drag ends there.
  canvas.addEventListener('lostpointercapture', endPointer);
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());

  canvas.addEventListener('dblclick', (event) => {
    event.preventDefault();
    send({ type: 'focus', ...viewPoint(event) });
  });

  canvas.addEventListener('wheel', (event) => {
    event.preventDefault();
    // Lines and pages are turned into pixels as Chromium scrolls them.
    const pixelsPerUnit = [1, 33, stage.clientHeight][event.deltaMode] || 1;
    const notches = -event.deltaY * pixelsPerUnit / WHEEL_NOTCH_PX;
    queueNotches(Math.max(-WHEEL_MAX_NOTCHES, Math.min(WHEEL_MAX_NOTCHES, notches)));
  }, { passive: false });

  // Touch: one finger orbits; two fingers pinch to zoom and move together to pan. The baseline
  // is taken again whenever a finger comes or goes, so the view never jumps.
  const touches = new Map();  // pointer id -> { x, y } in CSS pixels
  let pinch = null;           // { x, y, distance } of the two fingers at the last move
  let lastTap = null;         // { time, x, y } for double-tap focus
  let tapStart = null;

  function twoFingers() {
    const [a, b] = [...touches.values()];
    return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, distance: Math.hypot(a.x - b.x, a.y - b.y) };
  }

  function touchDown(event) {
    event.preventDefault();
    canvas.setPointerCapture(event.pointerId);
    touches.set(event.pointerId, { x: event.clientX, y: event.clientY });
    pinch = touches.size === 2 ? twoFingers() : null;
    tapStart = touches.size === 1 ? { x: event.clientX, y: event.clientY } : null;
  }

  function touchMove(event) {
    const touch = touches.get(event.pointerId);
    if (!touch) return;
    const dx = event.clientX - touch.x, dy = event.clientY - touch.y;
    touch.x = event.clientX;
    touch.y = event.clientY;
    if (touches.size === 1) {
      queueDrag(dx, dy, 'left');
    } else if (touches.size === 2 && pinch) {
      const now = twoFingers();
      queueDrag(now.x - pinch.x, now.y - pinch.y, 'right');
      if (pinch.distance > 0 && now.distance > 0) {
        queueNotches(Math.log(now.distance / pinch.distance) / Math.log(PINCH_NOTCH_RATIO));
      }
      pinch = now;
    }
  }

  function touchUp(event) {
    if (!touches.delete(event.pointerId)) return;
    pinch = touches.size === 2 ? twoFingers() : null;
    flushInput();
    if (event.type !== 'pointerup' || !tapStart || touches.size > 0) return;
    const now = performance.now();
    if (Math.hypot(event.clientX - tapStart.x, event.clientY - tapStart.y) >= DOUBLE_TAP_PX) return;
    if (lastTap && now - lastTap.time < DOUBLE_TAP_MS &&
        Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < DOUBLE_TAP_PX) {
      send({ type: 'focus', ...viewPoint(event) });
      lastTap = null;
    } else {
      lastTap = { time: now, x: event.clientX, y: event.clientY };
      click(event);
    }
  }

  // Keys: the fly keys are sent as the set held now, and only when it changes; the server moves
  // the camera with its own clock, so key repeat and frame rate do not change the speed.
  const heldCodes = new Set();
  let sentKeys = '';

  function isTextEntry(target) {
    return target instanceof Element &&
           target.matches('input[type="number"], input[type="text"], select, textarea');
  }

  function sendKeys() {
    const held = [...new Set([...heldCodes].map((code) => FLY_KEYS[code]))].sort();
    const key = held.join(',');
    if (key === sentKeys) return;
    sentKeys = key;
    send({ type: 'keys', held });
  }

  function releaseKeys() {
    heldCodes.clear();
    sendKeys();
  }

  window.addEventListener('keydown', (event) => {
    if (isTextEntry(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.code === 'Tab') {
      // Tab walks the panel's controls while one of them has the focus; over the view it
      // switches the camera, as in pcv view.
      if ($('panel').contains(event.target)) return;
      event.preventDefault();
      if (!event.repeat) toggleMode();
      return;
    }
    if (event.code === 'Home') {
      event.preventDefault();
      send({ type: 'home' });
      return;
    }
    if (event.code in FLY_KEYS) {
      heldCodes.add(event.code);
      sendKeys();
    }
  });
  window.addEventListener('keyup', (event) => {
    if (heldCodes.delete(event.code)) sendKeys();
  });
  // A key released while another window had the focus never sends keyup: without this the
  // camera would fly on by itself.
  window.addEventListener('blur', releaseKeys);
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) releaseKeys();
  });

  // ---- Camera mode, home, bookmarks -----------------------------------------------------------

  function showMode(mode) {
    if (mode !== 'orbit' && mode !== 'fly') return;
    state.mode = mode;
    $('mode').textContent = mode === 'fly' ? 'Fly' : 'Orbit';
    $('mode').setAttribute('aria-pressed', String(mode === 'fly'));
  }

  function toggleMode() {
    send({ type: 'mode', camera: state.mode === 'orbit' ? 'fly' : 'orbit' });
  }
  $('mode').addEventListener('click', toggleMode);
  $('home').addEventListener('click', () => send({ type: 'home' }));

  // `#view=x,y,z,yaw,pitch[,fov]`: the numbers as the server writes them in `status`, which
  // read back to the same view.
  function parseViewHash(hash) {
    const match = /(?:^#|&)view=([^&]*)/.exec(hash);
    if (!match) return null;
    const numbers = decodeURIComponent(match[1]).split(',').map(Number);
    if (numbers.length !== 5 && numbers.length !== 6) return null;
    if (!numbers.every(Number.isFinite)) return null;
    const view = { eye: numbers.slice(0, 3), yaw: numbers[3], pitch: numbers[4] };
    if (numbers.length === 6) view.fov = numbers[5];
    return view;
  }

  function viewHash(camera) {
    const numbers = [...camera.eye, camera.yaw, camera.pitch];
    if (camera.fov !== undefined) numbers.push(camera.fov);
    return `#view=${numbers.join(',')}`;
  }

  // Until a frame shows the view asked for, the frames in flight still show the old one and
  // must not write it back into the address.
  let requestedView = null;  // { view, until }

  function requestView(view) {
    requestedView = { view, until: performance.now() + 2000 };
    send({ type: 'view', ...view });
  }

  function sameView(camera, view) {
    const close = (a, b) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
    return view.eye.every((v, i) => close(v, camera.eye[i])) && close(view.yaw, camera.yaw) &&
           close(view.pitch, camera.pitch) &&
           (view.fov === undefined || close(view.fov, camera.fov));
  }

  let hashTimer = 0;
  let hashCamera = null;

  function receiveStatus(status) {
    showMode(status.mode ?? status.camera?.mode);
    const camera = status.camera;
    if (!camera) return;
    if (marksCamera !== null && JSON.stringify(camera) !== marksCamera) clearMarks();
    if (requestedView) {
      if (!sameView(camera, requestedView.view) && performance.now() < requestedView.until) return;
      requestedView = null;
    }
    hashCamera = camera;
    if (!hashTimer) {
      hashTimer = setTimeout(() => {
        hashTimer = 0;
        writeHash();
      }, HASH_UPDATE_INTERVAL_MS);
    }
  }

  function writeHash() {
    if (!hashCamera) return;
    const hash = viewHash(hashCamera);
    if (hash !== location.hash) history.replaceState(null, '', hash);
  }

  // A link pasted over this page's address, or one edited by hand.
  window.addEventListener('hashchange', () => {
    const view = parseViewHash(location.hash);
    if (view) requestView(view);
  });

  // ---- The panel --------------------------------------------------------------------------------

  function sendSettings(changes) {
    Object.assign(state.settings, changes);
    for (const name of PER_CLIENT_SETTINGS) {
      if (name in changes) state.changedSettings[name] = changes[name];
    }
    send({ type: 'settings', ...changes });
  }

  // The classes as hello lists them: [{ code, name }].
  function classList(classes) {
    return (classes || [])
      .map(({ code, name }) => ({ code: Number(code), name: name || `class ${code}` }))
      .filter((entry) => Number.isInteger(entry.code));
  }

  function buildPanel(hello) {
    const scene = hello.scene || {};
    const settings = state.settings;

    const color = $('color');
    color.replaceChildren(...(scene.colors || []).map((mode) => new Option(mode, mode)));
    color.value = settings.color ?? '';
    color.disabled = (scene.colors || []).length < 2;

    $('point-size').value = settings.pointSize ?? 1;
    $('point-size-value').textContent = $('point-size').value;
    $('edl').checked = !!settings.edl;
    $('hq').checked = !!settings.hq;
    $('lossless').checked = !!settings.lossless;

    $('budget-row').hidden = !scene.streamed;
    const budget = settings.pointBudget ?? scene.pointBudget;  // the scene's, told with it
    if (budget) $('point-budget').value = +(budget / 1e6).toPrecision(6);

    const classes = classList(scene.classes);
    $('classes-section').hidden = classes.length === 0;
    const shown = settings.classes ? new Set(settings.classes) : null;
    $('classes').replaceChildren(...classes.map(({ code, name }) => {
      const label = document.createElement('label');
      label.className = 'check';
      label.title = `${code}: ${name}`;
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = code;
      box.checked = !shown || shown.has(code);
      label.append(box, ` ${name}`);
      return label;
    }));
  }

  $('color').addEventListener('change', (event) => sendSettings({ color: event.target.value }));
  $('point-size').addEventListener('input', (event) => {
    $('point-size-value').textContent = event.target.value;
    sendSettings({ pointSize: Number(event.target.value) });
  });
  for (const name of ['edl', 'hq', 'lossless']) {
    $(name).addEventListener('change', (event) => sendSettings({ [name]: event.target.checked }));
  }
  $('point-budget').addEventListener('change', (event) => {
    const points = Math.round(Number(event.target.value) * 1e6);
    if (Number.isFinite(points) && points > 0) sendSettings({ pointBudget: points });
  });
  $('classes').addEventListener('change', () => {
    const boxes = [...$('classes').querySelectorAll('input')];
    const checked = boxes.filter((box) => box.checked).map((box) => Number(box.value));
    sendSettings({ classes: checked.length === boxes.length ? null : checked });
  });

  $('panel-toggle').addEventListener('click', () => {
    setPanelCollapsed(!$('panel').classList.contains('collapsed'));
  });

  function setPanelCollapsed(collapsed) {
    $('panel').classList.toggle('collapsed', collapsed);
    const toggle = $('panel-toggle');
    toggle.setAttribute('aria-expanded', String(!collapsed));
    toggle.innerHTML = collapsed ? '&#x25B6;' : '&#x25C0;';
    toggle.title = collapsed ? 'Show the panel' : 'Hide the panel';
    try {
      localStorage.setItem('pcv.panelCollapsed', collapsed ? '1' : '');
    } catch { /* storage off: the panel opens expanded next time */ }
  }
  try {
    if (localStorage.getItem('pcv.panelCollapsed')) setPanelCollapsed(true);
  } catch { /* storage off */ }

  // ---- Status line ------------------------------------------------------------------------------

  const frameTimes = [];
  function countFrameRate() {
    const now = performance.now();
    frameTimes.push(now);
    while (frameTimes.length > 0 && frameTimes[0] < now - 1000) frameTimes.shift();
  }

  const formatCount = (n) => Number(n).toLocaleString('en-US');
  const formatMs = (ms) => (typeof ms === 'number' ? ms.toFixed(1) : '–');

  function showStatus() {
    const frame = state.shown;
    const status = frame.status || {};
    const backend = state.hello?.scene?.backend;
    const encode =
        status.encodeMs !== undefined ? ` · encode ${formatMs(status.encodeMs)} ms` : '';
    const lines = [
      `${frameTimes.length} fps${backend ? ` · ${backend}` : ''} · ` +
        `${formatCount(status.points ?? state.hello?.scene?.points ?? 0)} points`,
      `draw ${formatMs(status.drawMs)} ms${encode}`,
      `${frame.width}×${frame.height} ${frame.format.toUpperCase()}` +
        (frame.final ? ' · final' : ''),
    ];
    const stream = status.stream;
    if (stream) {
      lines.push(`nodes ${formatCount(stream.resident)} / ${formatCount(stream.wanted)}` +
                 (stream.converged ? ' · converged' : ' · loading'));
    }
    $('status').textContent = lines.join('\n');
  }

  // ---- Tools: pick and measure ------------------------------------------------------------------

  for (const button of document.querySelectorAll('[data-tool]')) {
    button.addEventListener('click', () => setTool(button.dataset.tool));
  }

  function setTool(tool) {
    state.tool = tool;
    document.body.dataset.tool = tool;
    for (const button of document.querySelectorAll('[data-tool]')) {
      button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
    }
    state.measure = [];
    measureMarks = [];
    state.distance = null;
    clearMarks();
    const hints = { measure: 'Click two points.', pick: 'Click a point.' };
    showToolResult(hints[tool] || null);
  }

  function click(event) {
    if (state.tool === 'none') return;
    const id = state.nextPickId++;
    const rect = canvas.getBoundingClientRect();
    const at = { x: event.clientX - rect.left, y: event.clientY - rect.top };
    state.picks.set(id, { tool: state.tool, at });
    send({ type: 'pick', id, ...viewPoint(event) });
  }

  function receivePick(answer) {
    const request = state.picks.get(answer.id);
    state.picks.delete(answer.id);
    state.lastPick = answer;
    // The tool changed while the answer was coming: it answers a question nobody asks now.
    if (!request || request.tool !== state.tool) return;
    const point = answer.point;
    if (!point) {
      showToolResult('No point there.');
      return;
    }
    const position = formatPosition(point.position);
    if (request.tool === 'pick') {
      const attributes = Object.entries(point.attributes || {}).map(([name, value]) =>
        `${name}: ${Array.isArray(value) ? value.join(', ') : value}`);
      showToolResult([position, ...attributes].join('\n'));
      showMarks([request.at]);
      return;
    }
    if (state.measure.length === 2) {
      state.measure = [];
      measureMarks = [];
    }
    state.measure.push(point.position);
    measureMarks.push(request.at);
    if (state.measure.length === 1) {
      state.distance = null;
      showToolResult(`A ${position}\nClick the second point.`);
      showMarks(measureMarks);
      return;
    }
    const [a, b] = state.measure;
    const d = b.map((v, i) => v - a[i]);
    state.distance = Math.hypot(...d);
    showToolResult([
      `A ${formatPosition(a)}`,
      `B ${position}`,
      `distance: ${state.distance.toFixed(3)}`,
      `horizontal: ${Math.hypot(d[0], d[1]).toFixed(3)}`,
      `Δz: ${d[2].toFixed(3)}`,
    ].join('\n'));
    showMarks(measureMarks, state.distance.toFixed(3));
  }

  // Marks where the points were clicked, over the frame they were picked in. The page cannot
  // project them into another view (the camera's conventions are the server's), so they go
  // when the camera moves; the numbers stay in the panel.
  const SVG = 'http://www.w3.org/2000/svg';
  let measureMarks = [];      // CSS pixels of the measurement's clicks
  let marksCamera = null;     // the camera the marks belong to, as JSON

  function svgElement(name, attributes) {
    const element = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    return element;
  }

  function showMarks(points, label) {
    const marks = $('marks');
    marks.replaceChildren();
    marksCamera = JSON.stringify(state.shown?.status?.camera ?? null);
    if (points.length === 2) {
      const [a, b] = points;
      marks.append(svgElement('line', { x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
      if (label) {
        const text = svgElement('text', { x: (a.x + b.x) / 2 + 8, y: (a.y + b.y) / 2 - 8 });
        text.textContent = label;
        marks.append(text);
      }
    }
    for (const p of points) marks.append(svgElement('circle', { cx: p.x, cy: p.y, r: 4 }));
  }

  function clearMarks() {
    $('marks').replaceChildren();
    marksCamera = null;
  }

  // World coordinates with millimetres (of metres; the units are the data's), space-separated
  // so that projected coordinates of seven digits still fit a line of the panel.
  function formatPosition(position) {
    return position.map((v) => v.toFixed(3)).join(' ');
  }

  function showToolResult(text) {
    const result = $('tool-result');
    result.hidden = !text;
    result.textContent = text || '';
  }

  // ---- Sharing ----------------------------------------------------------------------------------

  async function copyText(text, button) {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // The clipboard API needs a secure context (https or localhost); over plain http from
      // another host the old way still works.
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      const copied = document.execCommand('copy');
      area.remove();
      if (!copied) {
        showError('The browser refused the clipboard.');
        return;
      }
    }
    const label = button.textContent;
    button.textContent = 'Copied';
    setTimeout(() => { button.textContent = label; }, 1200);
  }

  $('copy-link').addEventListener('click', (event) => {
    writeHash();
    copyText(location.href, event.currentTarget);
  });
  $('copy-command').addEventListener('click', (event) => {
    const command = state.shown?.status?.command;
    if (command) copyText(command, event.currentTarget);
    else showError('No frame yet: nothing to copy.');
  });

  // ---- Notices and errors -----------------------------------------------------------------------

  function showNotice(text) {
    const notice = $('notice');
    notice.textContent = text;
    notice.hidden = false;
  }

  function hideNotice() {
    $('notice').hidden = true;
  }

  function showError(message) {
    if (state.errors.length < 100) state.errors.push(message);
    const list = $('errors');
    const item = document.createElement('div');
    item.textContent = message;
    list.append(item);
    while (list.children.length > ERRORS_SHOWN_MAX) list.firstElementChild.remove();
    setTimeout(() => item.classList.add('fading'), ERROR_SHOWN_MS);
    setTimeout(() => item.remove(), ERROR_SHOWN_MS + 600);
  }

  showNotice('Connecting…');
  connect();
})();
