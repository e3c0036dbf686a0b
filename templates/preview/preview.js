/* newsstand preview: the issue reader. Shows one page at a time and moves like the app:
   left/right between articles (to an article's first page), up/down between the pages of
   the current article. The position is kept in the address (#p2-1: article 2, page 1).
   Without JavaScript every page is shown, one under the other. */
(function () {
  'use strict';
  var reader = document.querySelector('[data-reader]');
  if (!reader) return;
  document.documentElement.classList.add('js');

  var articles = Array.prototype.map.call(reader.querySelectorAll('.article'), function (article) {
    return Array.prototype.slice.call(article.querySelectorAll('.page'));
  }).filter(function (pages) { return pages.length > 0; });
  if (articles.length === 0) return;

  var position = document.querySelector('[data-position]');
  var nav = document.querySelector('[data-nav]');
  var map = document.querySelector('[data-map]');
  var current = { article: 0, page: 0 };
  var mapButtons = [];

  function clamp(value, max) { return Math.max(0, Math.min(max, value)); }

  function show(article, page) {
    article = clamp(article, articles.length - 1);
    page = clamp(page, articles[article].length - 1);
    articles[current.article][current.page].classList.remove('is-current');
    mapButtons.forEach(function (b) { b.removeAttribute('aria-current'); });
    current = { article: article, page: page };
    var element = articles[article][page];
    element.classList.add('is-current');
    reader.setAttribute('data-current-article', String(article + 1));
    reader.setAttribute('data-current-page', String(page + 1));
    if (position) {
      position.textContent = 'Article ' + (article + 1) + ' of ' + articles.length +
        ' · Page ' + (page + 1) + ' of ' + articles[article].length;
    }
    var button = map && map.querySelector('[data-to="' + element.id + '"]');
    if (button) button.setAttribute('aria-current', 'page');
    if (history.replaceState && element.id) {
      try { history.replaceState(null, '', '#' + element.id); } catch (e) { /* file:// in some browsers */ }
    }
  }

  function go(direction) {
    switch (direction) {
      case 'right': if (current.article < articles.length - 1) show(current.article + 1, 0); break;
      case 'left': if (current.article > 0) show(current.article - 1, 0); break;
      case 'down': show(current.article, current.page + 1); break;
      case 'up': show(current.article, current.page - 1); break;
    }
  }

  function fromHash() {
    var match = /^#p(\d+)-(\d+)$/.exec(location.hash);
    return match ? { article: Number(match[1]) - 1, page: Number(match[2]) - 1 } : { article: 0, page: 0 };
  }

  // The map: one column per article, one dot per page.
  if (map) {
    articles.forEach(function (pages, a) {
      var column = document.createElement('div');
      column.className = 'reader-nav__article';
      pages.forEach(function (page, p) {
        var dot = document.createElement('button');
        dot.type = 'button';
        dot.className = 'reader-nav__dot';
        dot.setAttribute('data-to', page.id);
        dot.title = 'Article ' + (a + 1) + ', page ' + (p + 1);
        dot.addEventListener('click', function () { show(a, p); });
        column.appendChild(dot);
        mapButtons.push(dot);
      });
      map.appendChild(column);
    });
  }
  if (nav) {
    nav.hidden = false;
    Array.prototype.forEach.call(nav.querySelectorAll('[data-go]'), function (button) {
      button.addEventListener('click', function () { go(button.getAttribute('data-go')); });
    });
  }

  // Photos open in a lightbox at their largest size (the last, densest file of their srcset),
  // and the arrow keys move to the gallery's next or previous photo.
  var lightbox = document.createElement('dialog');
  lightbox.className = 'lightbox';
  lightbox.innerHTML = '<img class="lightbox__image" alt=""><button type="button" class="lightbox__close" title="Close (Esc)">×</button>';
  document.body.appendChild(lightbox);
  lightbox.addEventListener('click', function () { lightbox.close(); });
  var photos = [];
  var shownPhoto = -1;
  function largest(link) {
    var best = link.getAttribute('href');
    var density = 1;
    (link.getAttribute('data-srcset') || '').split(',').forEach(function (candidate) {
      var parts = candidate.trim().split(/\s+/);
      var x = parseFloat(parts[1]) || 1;
      if (parts[0] && x > density) { density = x; best = parts[0]; }
    });
    return best;
  }
  function openPhoto(index) {
    shownPhoto = (index + photos.length) % photos.length;
    var link = photos[shownPhoto];
    var image = lightbox.querySelector('img');
    image.src = largest(link);
    image.alt = link.title;
    lightbox.setAttribute('data-photo', String(shownPhoto + 1));
    if (!lightbox.open) lightbox.showModal();
  }
  Array.prototype.forEach.call(reader.querySelectorAll('.gallery'), function (gallery) {
    var links = Array.prototype.slice.call(gallery.querySelectorAll('.gallery__item'));
    links.forEach(function (link, index) {
      link.addEventListener('click', function (event) {
        if (!lightbox.showModal) return;
        event.preventDefault();
        photos = links;
        openPhoto(index);
      });
    });
  });
  var photoKeys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

  var keys = { ArrowRight: 'right', ArrowLeft: 'left', ArrowDown: 'down', ArrowUp: 'up' };
  document.addEventListener('keydown', function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (lightbox.open) {
      if (!photoKeys[event.key]) return;
      event.preventDefault();
      openPhoto(shownPhoto + photoKeys[event.key]);
      return;
    }
    var direction = keys[event.key];
    if (!direction) return;
    event.preventDefault();
    go(direction);
  });
  window.addEventListener('hashchange', function () { var to = fromHash(); show(to.article, to.page); });

  var start = fromHash();
  articles[0][0].classList.add('is-current');
  show(start.article, start.page);
})();
