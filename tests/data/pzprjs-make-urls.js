// Makes puzz.link URLs of gridsat's project puzzles with pzprjs's own encoders: each puzzle
// (JSON Lines on standard input: genre, w, h, cells, regions) is set on a pzprjs board cell by
// cell and border by border, and pzprjs's getURL() writes the URL. Then pzprjs decodes its own
// sample URLs, printing each cell's number and room.
var pzpr = require('/work/ext/pzprjs');
var lines = require('fs').readFileSync(0, 'utf-8').split('\n').filter(function (l) { return l; });
function make(genre, j, flag) {
  var p = new pzpr.Puzzle();
  var url = null;
  p.open(genre + '/' + j.w + '/' + j.h, function () {
    var bd = p.board;
    for (var i = 0; i < bd.cell.length; i++) { bd.cell[i].qnum = j.cells[i] > 0 ? j.cells[i] : -1; }
    if (j.regions) {
      for (var id = 0; id < bd.border.length; id++) {
        var b = bd.border[id], a = b.sidecell[0], c = b.sidecell[1];
        if (!a.isnull && !c.isnull) { b.ques = j.regions[a.id] !== j.regions[c.id] ? 1 : 0; }
      }
    }
    if (flag === 'e') { p.setConfig('dontpassallcell', true); }
    url = p.getURL();
  });
  return url;
}
lines.forEach(function (l) {
  var j = JSON.parse(l);
  var where = j.file + ' ' + j.index;
  if (j.genre === 'numlin') {
    console.log(where + ' ' + make('numlin', j));
    var max = Math.max.apply(null, j.cells);
    if (max <= 52) {
      console.log(where + ' ' + make('arukone', j));
      console.log(where + ' ' + make('arukone', j, 'e'));
    }
  } else {
    console.log(where + ' ' + make(j.genre, j));
  }
});
// pzprjs's own sample URLs (test/script/*.js), decoded by pzprjs: numbers and rooms.
['sudoku/4/4/g1k23k3g', 'suguru/5/5/cih47bs73m3g5p1g2g', 'numlin/5/5/1j2h3m1h2j3', 'arukone/4/4/12l3123j'].forEach(function (u) {
  var p = new pzpr.Puzzle();
  p.open(u, function () {
    var bd = p.board, q = [], rooms = [];
    for (var i = 0; i < bd.cell.length; i++) { q.push(bd.cell[i].qnum); }
    var line = 'sample ' + p.getURL() + ' numbers ' + q.join(',');
    if (bd.roommgr && bd.roommgr.enabled) {
      bd.roommgr.rebuild();
      for (var i = 0; i < bd.cell.length; i++) { rooms.push(bd.roommgr.components.indexOf(bd.cell[i].room)); }
      line += ' rooms ' + rooms.join(',');
    }
    console.log(line);
  });
});
